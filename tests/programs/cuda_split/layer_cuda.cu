// One fully connected layer with a sigmoid, as Rodinia's backprop splits it: each block of 16x16 threads
// multiplies a 16-input slice by the weights and reduces the products in shared memory; the host adds the
// blocks' partial sums (as bpnn_layerforward_CUDA does) and applies the sigmoid.
#include <math.h>
#include <stdlib.h>
#include <cuda.h>
#include "layer.h"

#define TILE 16

__global__ void layer_partial(const float *in, const float *w, float *partial, int n_in, int n_out) {
  __shared__ float in_tile[TILE];
  __shared__ float prod[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;  // input index
  int col = blockIdx.x * TILE + tx;  // output index
  if (tx == 0) in_tile[ty] = row < n_in ? in[row] : 0.0f;
  __syncthreads();
  prod[ty][tx] = (row < n_in && col < n_out) ? in_tile[ty] * w[row * n_out + col] : 0.0f;
  __syncthreads();
  for (int s = TILE / 2; s > 0; s /= 2) {
    if (ty < s) prod[ty][tx] += prod[ty + s][tx];
    __syncthreads();
  }
  if (ty == 0 && col < n_out) partial[blockIdx.y * n_out + col] = prod[0][tx];
}

extern "C" void layer_forward_cuda(const float *in, const float *weights, float *out, int n_in, int n_out) {
  int by = (n_in + TILE - 1) / TILE, bx = (n_out + TILE - 1) / TILE;
  float *d_in, *d_w, *d_partial;
  cudaMalloc((void **)&d_in, n_in * sizeof(float));
  cudaMalloc((void **)&d_w, (size_t)n_in * n_out * sizeof(float));
  cudaMalloc((void **)&d_partial, (size_t)by * n_out * sizeof(float));
  cudaMemcpy(d_in, in, n_in * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, weights, (size_t)n_in * n_out * sizeof(float), cudaMemcpyHostToDevice);
  dim3 grid(bx, by), threads(TILE, TILE);
  layer_partial<<<grid, threads>>>(d_in, d_w, d_partial, n_in, n_out);
  float *partial = (float *)malloc((size_t)by * n_out * sizeof(float));
  cudaMemcpy(partial, d_partial, (size_t)by * n_out * sizeof(float), cudaMemcpyDeviceToHost);
  for (int j = 0; j < n_out; j++) {
    float sum = 0.0f;
    for (int b = 0; b < by; b++) sum += partial[b * n_out + j];
    out[j] = 1.0f / (1.0f + expf(-sum));
  }
  free(partial);
  cudaFree(d_in);
  cudaFree(d_w);
  cudaFree(d_partial);
}
