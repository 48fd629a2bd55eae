// A histogram kernel templated on a bool (privatize bins in shared memory or not), an unsigned bin count and an
// enum scaling policy, with `if constexpr` choosing the code path, block-scoped and system-scoped atomics
// (atomicAdd_block, atomicAdd_system), sm_80 warp reductions (__reduce_add_sync, __reduce_max_sync) for a
// per-warp count and maximum, and a __shared__ float4 staging array; std::vector references on the host.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

enum class Scale { Linear, Square };

template <bool PRIVATE, unsigned BINS, Scale S>
__global__ void histogram(const float4 *in, int n4, unsigned *bins, unsigned *warp_max, unsigned *total) {
  __shared__ unsigned local[BINS];
  __shared__ float4 stage[128];
  if constexpr (PRIVATE) {
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
  }
  unsigned counted = 0;
  for (int base = blockIdx.x * blockDim.x; base < n4; base += gridDim.x * blockDim.x) {
    int i = base + threadIdx.x;
    stage[threadIdx.x] = i < n4 ? in[i] : make_float4(-1.f, -1.f, -1.f, -1.f);
    __syncthreads();
    float4 v = stage[threadIdx.x];
    float xs[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; q++) {
      float x = xs[q];
      if (x < 0.f) continue;
      if constexpr (S == Scale::Square) x = x * x;
      unsigned b = min((unsigned)(x * BINS), BINS - 1);
      if constexpr (PRIVATE) atomicAdd_block(&local[b], 1u);
      else atomicAdd(&bins[b], 1u);
      counted++;
    }
    __syncthreads();
  }
  unsigned warp_count = __reduce_add_sync(0xffffffffu, counted);
  unsigned most = __reduce_max_sync(0xffffffffu, counted);
  if (threadIdx.x % 32 == 0) {
    atomicAdd_system(total, warp_count);
    atomicMax(&warp_max[0], most);
  }
  if constexpr (PRIVATE) {
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
  }
}

template <bool PRIVATE, unsigned BINS, Scale S>
bool run(const std::vector<float> &h) {
  int n4 = (int)h.size() / 4;
  float4 *d_in;
  unsigned *d_bins, *d_max, *d_total;
  CHECK_CUDA(cudaMalloc(&d_in, n4 * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&d_bins, BINS * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&d_max, sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&d_total, sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(d_in, h.data(), n4 * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_bins, 0, BINS * sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(d_max, 0, sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(d_total, 0, sizeof(unsigned)));
  const int blocks = 12, threads = 128;
  histogram<PRIVATE, BINS, S><<<blocks, threads>>>(d_in, n4, d_bins, d_max, d_total);
  std::vector<unsigned> got(BINS);
  unsigned most, total;
  CHECK_CUDA(cudaMemcpy(got.data(), d_bins, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&most, d_max, sizeof most, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
  std::vector<unsigned> want(BINS, 0), per_thread(blocks * threads, 0);
  for (int i = 0; i < n4 * 4; i++) {
    float x = h[i];
    if (x < 0.f) continue;
    if (S == Scale::Square) x = x * x;
    want[std::min((unsigned)(x * BINS), BINS - 1)]++;
    per_thread[(i / 4) % (blocks * threads)]++;
  }
  unsigned want_total = 0, want_most = 0;
  for (int w = 0; w < blocks * threads / 32; w++) {
    unsigned sum = 0, mx = 0;
    for (int l = 0; l < 32; l++) { sum += per_thread[w * 32 + l]; mx = std::max(mx, per_thread[w * 32 + l]); }
    want_total += sum;
    want_most = std::max(want_most, mx);
  }
  cudaFree(d_in); cudaFree(d_bins); cudaFree(d_max); cudaFree(d_total);
  bool ok = got == want && total == want_total && most == want_most;
  printf("private=%d bins=%u square=%d: total %u, busiest thread %u: %s\n", PRIVATE, BINS, S == Scale::Square,
         total, most, ok ? "ok" : "wrong");
  return ok;
}

int main() {
  std::mt19937 gen(8);
  std::uniform_real_distribution<float> d(-0.2f, 1.f);
  std::vector<float> h(4 * 20011);
  for (auto &v : h) v = d(gen);
  bool ok = run<true, 64u, Scale::Linear>(h) && run<false, 64u, Scale::Square>(h) &&
            run<true, 4000000000u / 15625000u, Scale::Square>(h);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
