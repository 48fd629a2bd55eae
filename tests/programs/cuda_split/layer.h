/* The interface between layer_main.c (C, compiled and linked by gcc) and layer_cuda.cu (nvcc), in the style of
   Rodinia's backprop: a C function defined in the .cu file runs the kernels. */
#ifndef LAYER_H
#define LAYER_H
#ifdef __cplusplus
extern "C" {
#endif
void layer_forward_cuda(const float *in, const float *weights, float *out, int n_in, int n_out);
#ifdef __cplusplus
}
#endif
#endif
