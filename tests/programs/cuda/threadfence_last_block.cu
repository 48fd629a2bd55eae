// Single-pass sum: every block writes its partial sum, __threadfence(), then counts itself done with atomicInc;
// the last block (a __shared__ flag read after a barrier) adds the partial sums and resets the counter, so the
// kernel can be launched again. A double reference computed on the host.
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
#include "check.h"

__device__ unsigned int blocks_done = 0;

template <unsigned BS>
__device__ float block_sum(float v, float *s) {
  s[threadIdx.x] = v;
  __syncthreads();
#pragma unroll
  for (unsigned k = BS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  return s[0];
}

template <unsigned BS>
__global__ void sum_single_pass(const float *x, int n, float *partial, float *result) {
  __shared__ float s[BS];
  __shared__ bool am_last;
  float v = 0.f;
  for (int i = blockIdx.x * BS + threadIdx.x; i < n; i += gridDim.x * BS) v += x[i];
  float total = block_sum<BS>(v, s);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = total;
    __threadfence();
    unsigned ticket = atomicInc(&blocks_done, gridDim.x);
    am_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (am_last) {
    float w = 0.f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BS) w += partial[b];
    float all = block_sum<BS>(w, s);
    if (threadIdx.x == 0) {
      *result = all;
      blocks_done = 0;
    }
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<float> h(n);
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(0.f, 1.f);
  for (auto &v : h) v = dist(gen);
  double want = std::accumulate(h.begin(), h.end(), 0.0);
  float *x, *partial, *result;
  const int blocks = 64;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&partial, blocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&result, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int rep = 0; rep < 3; rep++) {
    sum_single_pass<256><<<blocks, 256>>>(x, n, partial, result);
    float got;
    CHECK_CUDA(cudaMemcpy(&got, result, sizeof got, cudaMemcpyDeviceToHost));
    printf("sum %.2f (want %.2f)\n", got, want);
    ok = ok && std::fabs(got - want) < 1e-4 * want;
  }
  unsigned done;
  CHECK_CUDA(cudaMemcpyFromSymbol(&done, blocks_done, sizeof done));
  ok = ok && done == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
