// Stream compaction with warp-aggregated atomics: __activemask, __ballot_sync, __popc, __ffs, __shfl_sync,
// a grid-stride loop; the same with cooperative groups' coalesced_threads() (the CUDA samples' atomicAggInc);
// std::copy_if as the reference (the output order is checked as a multiset).
#include <algorithm>
#include <cooperative_groups.h>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

__device__ int warp_reserve(int *counter) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int base = 0;
  if (lane_id() == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  return base + __popc(mask & ((1u << lane_id()) - 1));
}

__global__ void compact_positive(const int *in, int n, int *out, int *count) {
  // every lane of a warp runs the same rounds (the shuffles and votes need the whole warp)
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    int i = base + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned take = __ballot_sync(0xffffffffu, v > 0);
    if (v > 0) {
      int slot = warp_reserve(count);
      out[slot] = v;
    }
    if (lane_id() == 0 && take == 0 && i < n) atomicAdd(count + 1, 1);  // warps that found nothing
  }
}

namespace cg = cooperative_groups;

__device__ int atomic_agg_inc(int *counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(counter, (int)g.size());
  return g.shfl(prev, 0) + (int)g.thread_rank();
}

__global__ void compact_odd(const int *in, int n, int *out, int *count) {
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    int i = base + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (v & 1) out[atomic_agg_inc(count)] = v;
  }
}

int main() {
  const int n = 100003;
  std::mt19937 gen(42);
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<int> h(n);
  std::generate(h.begin(), h.end(), [&] { return dist(gen); });
  for (int i = 4096; i < 4096 + 64; i++) h[i] = -1;  // two whole warps without a positive value
  int *d_in, *d_out, *d_count;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_count, 2 * sizeof(int)));
  CHECK_CUDA(cudaMemset(d_count, 0, 2 * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  compact_positive<<<40, 256>>>(d_in, n, d_out, d_count);
  CHECK_CUDA(cudaGetLastError());
  int count[2];
  CHECK_CUDA(cudaMemcpy(count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  std::vector<int> got(count[0]);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, count[0] * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> want;
  std::copy_if(h.begin(), h.end(), std::back_inserter(want), [](int v) { return v > 0; });
  int empty_warps = 0;
  for (int w = 0; w * 32 < n; w++) {
    bool any = false;
    for (int i = w * 32; i < std::min(n, w * 32 + 32); i++) any |= h[i] > 0;
    empty_warps += !any;
  }
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  bool ok = got == want && count[1] == empty_warps;
  printf("kept %d of %d, %d empty warps\n", count[0], n, count[1]);
  CHECK_CUDA(cudaMemset(d_count, 0, 2 * sizeof(int)));
  compact_odd<<<17, 96>>>(d_in, n, d_out, d_count);
  CHECK_CUDA(cudaMemcpy(count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  std::vector<int> odd(count[0]), want_odd;
  CHECK_CUDA(cudaMemcpy(odd.data(), d_out, count[0] * sizeof(int), cudaMemcpyDeviceToHost));
  std::copy_if(h.begin(), h.end(), std::back_inserter(want_odd), [](int v) { return v & 1; });
  std::sort(odd.begin(), odd.end());
  std::sort(want_odd.begin(), want_odd.end());
  ok = ok && odd == want_odd;
  printf("odd: kept %d\n", count[0]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  CHECK_CUDA(cudaFree(d_in)); CHECK_CUDA(cudaFree(d_out)); CHECK_CUDA(cudaFree(d_count));
  return ok ? 0 : 1;
}
