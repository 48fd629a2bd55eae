// Kernels defined in a header, with a host function template in the same header that launches them: the host
// compiler must see their declarations only (their bodies use threadIdx), and the launch in the header is
// rewritten like one in the .cu file.
#pragma once
#include <chrono>
#include "../scale_common.h"

template <typename T>
__global__ void shift_blend(const T *in, T *out, int n, int shift, float t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = blend(in[i], in[clamp_index(i + shift, n)], t);
}

__global__ void prefix_pairs(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (i > 0 ? in[i - 1] : 0);
}

template <typename T>
double run_shift_blend(const T *d_in, T *d_out, int n, int shift, float t) {
  auto start = std::chrono::steady_clock::now();
  shift_blend<T><<<(n + 127) / 128, 128>>>(d_in, d_out, n, shift, t);
  cudaDeviceSynchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
