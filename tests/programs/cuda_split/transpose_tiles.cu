// Tiled matrix transpose with 2-D blocks and a padded shared tile; CPU reference; std::vector; timing.
#include <vector>
#include <chrono>
#include <iostream>
#include "check.h"

const int TILE = 16;

template <typename T>
__global__ void transpose(T *out, const T *in, int rows, int cols) {
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int rows = 300, cols = 170;
  std::vector<double> a(rows * cols), t(rows * cols), ref(rows * cols);
  for (int i = 0; i < rows * cols; i++) a[i] = (i % 97) * 0.5 - i / 1000.0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) ref[c * rows + r] = a[r * cols + c];
  double *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, a.size() * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dout, a.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(din, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  auto start = std::chrono::steady_clock::now();
  transpose<double><<<grid, block>>>(dout, din, rows, cols);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  CHECK_CUDA(cudaMemcpy(t.data(), dout, t.size() * sizeof(double), cudaMemcpyDeviceToHost));
  bool ok = close_enough(t.data(), ref.data(), rows * cols, 0.0) && took.count() >= 0;
  std::cout << (ok ? "PASS" : "FAIL") << std::endl;
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  return ok ? 0 : 1;
}
