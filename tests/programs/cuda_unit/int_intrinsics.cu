/* CUDA integer intrinsics (__popc, __popcll, __clz, __clzll, __ffs, __ffsll, __mul24, __umul24) on a 1-D grid;
   checked against Python by tests/test_cuda_atomics.py. */
#include <stdio.h>
__global__ void bits(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i];
    long long w = (long long)v << 20;
    out[8 * i] = __popc(v);
    out[8 * i + 1] = __popcll(w);
    out[8 * i + 2] = __clz((int)v);
    out[8 * i + 3] = __clzll(w);
    out[8 * i + 4] = __ffs((int)v);
    out[8 * i + 5] = __ffsll(w);
    out[8 * i + 6] = __mul24((int)v, -3);
    out[8 * i + 7] = (int)__umul24(v, 5u);
  }
}
int main(void) {
  enum { N = 40 };
  unsigned in[N]; int out[8 * N];
  for (int i = 0; i < N; i++) in[i] = i == 0 ? 0u : (unsigned)(i * 2654435761u) >> (i % 13);
  unsigned *din; int *dout;
  cudaMalloc((void **)&din, sizeof in); cudaMalloc((void **)&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  bits<<<(N + 15) / 16, 16>>>(din, dout, N);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 8; k++) printf("%d ", out[8 * i + k]);
    printf("\n");
  }
  return 0;
}
