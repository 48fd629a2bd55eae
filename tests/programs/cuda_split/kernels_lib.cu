// Kernels compiled in one file and launched from another (declared in a shared header), as nvcc allows.
#include "kernels_lib.h"

__device__ float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

__global__ void saturate(float *x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = clampf(x[i], lo, hi);
}

template <typename T>
__global__ void fill_iota(T *x, T start, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = start + (T)i;
}

void launch_fill(int *x, int start, int n) { fill_iota<<<(n + 63) / 64, 64>>>(x, start, n); }
