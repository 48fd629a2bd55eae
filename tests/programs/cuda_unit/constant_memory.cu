/* __constant__ and __device__ globals set and read with cudaMemcpyToSymbol / cudaMemcpyFromSymbol; checked by tests/test_cuda_atomics.py. */
#include <stdio.h>
__constant__ float weights[5];
__constant__ int scale;
__device__ int counter;
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int j = 0; j < 5; j++) s += weights[j] * in[(i + j) % n];
    out[i] = s * scale;
    atomicAdd(&counter, 1);
  }
}
int main() {
  float h[5] = {1, 2, 3, 4, 5}; int sc = 2, zero = 0, cnt;
  cudaMemcpyToSymbol(weights, h, sizeof(h));
  cudaMemcpyToSymbol(scale, &sc, sizeof(int));
  cudaMemcpyToSymbol(counter, &zero, sizeof(int));
  int n = 50; float in[50], out[50];
  for (int i = 0; i < n; i++) in[i] = (float)(i % 7);
  float *din, *dout; cudaMalloc((void**)&din, sizeof in); cudaMalloc((void**)&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  k<<<4, 16>>>(din, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&cnt, counter, sizeof(int));
  float t = 0; for (int i = 0; i < n; i++) t += out[i];
  printf("%.1f %.1f %d\n", out[3], t, cnt);
  return 0;
}
