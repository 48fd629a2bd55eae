/* The time steps on the GPU: one thread per cell, the block's cells and a halo in shared memory. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "heat.h"

__global__ void heat_step(const double *in, double *out, int n, double alpha) {
  __shared__ double tile[BLOCK + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  int last = n - 1;
  tile[t] = in[i < n ? i : last];
  if (threadIdx.x == 0) tile[0] = in[i > 0 ? i - 1 : 0];                        /* insulated left end */
  if (threadIdx.x == blockDim.x - 1) tile[t + 1] = in[i + 1 < n ? i + 1 : last];  /* and right end */
  __syncthreads();
  if (i < n) {
    double l = i > 0 ? tile[t - 1] : tile[t];
    double r = i < last ? tile[t + 1] : tile[t];
    double c = tile[t];
    out[i] = c + alpha * (l - 2.0 * c + r);
  }
}

void heat_run(double *u, int n, int steps, double alpha) {
  double *a, *b;
  size_t bytes = n * sizeof(double);
  cudaMalloc((void **)&a, bytes);
  cudaMalloc((void **)&b, bytes);
  cudaMemcpy(a, u, bytes, cudaMemcpyHostToDevice);
  int blocks = (n + BLOCK - 1) / BLOCK;
  for (int s = 0; s < steps; s += 2) {
    heat_step<<<blocks, BLOCK>>>(a, b, n, alpha);
    heat_step<<<blocks, BLOCK>>>(b, a, n, alpha);
  }
  cudaDeviceSynchronize();
  cudaMemcpy(u, a, bytes, cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
}
