// Cooperative groups' thread_block_tile<16>: per-tile sums and maxima with cg::reduce, neighbours through
// shfl_down, broadcasts through shfl, prefix sums through shfl_up, votes, meta_group_rank; checked against a CPU
// reference over random inputs.
#include <algorithm>
#include <random>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "check.h"

namespace cg = cooperative_groups;
constexpr int kTile = 16;

__global__ void tiles(const int *x, int *sums, int *maxes, int *out, int *scan, unsigned *votes, int n) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<kTile>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  int down = tile.shfl_down(v, 1);
  int first = tile.shfl(v, 0);
  int prefix = v;  // inclusive scan within the tile
  for (unsigned d = 1; d < tile.size(); d *= 2) {
    int up = tile.shfl_up(prefix, d);
    if (tile.thread_rank() >= d) prefix += up;
  }
  unsigned odd = tile.ballot(v & 1);
  int any_big = tile.any(v > 90), all_pos = tile.all(v >= 0);
  tile.sync();
  if (tile.thread_rank() == 0) {
    sums[i / kTile] = s;
    votes[i / kTile] = odd ^ (any_big << 30) ^ ((unsigned)all_pos << 31);
  }
  if (tile.thread_rank() == 1) maxes[i / kTile] = m;
  if (i < n) {
    out[i] = (tile.thread_rank() + 1 < tile.size() ? down : 0) + first + 1000 * (int)tile.meta_group_rank();
    scan[i] = prefix;
  }
}

int main() {
  const int n = 1024, ntiles = n / kTile, threads = 128;
  std::mt19937 gen(5);
  std::uniform_int_distribution<int> dist(0, 99);
  std::vector<int> x(n), sums(ntiles), maxes(ntiles), out(n), scan(n);
  std::vector<unsigned> votes(ntiles);
  for (auto &v : x) v = dist(gen);
  int *dx, *ds, *dm, *dout, *dscan; unsigned *dv;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(int))); CHECK_CUDA(cudaMalloc(&dout, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dscan, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ds, ntiles * sizeof(int))); CHECK_CUDA(cudaMalloc(&dm, ntiles * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dv, ntiles * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  tiles<<<n / threads, threads>>>(dx, ds, dm, dout, dscan, dv, n);
  CHECK_CUDA(cudaMemcpy(sums.data(), ds, ntiles * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(maxes.data(), dm, ntiles * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(votes.data(), dv, ntiles * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(scan.data(), dscan, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int t = 0; t < ntiles; t++) {
    int s = 0, m = 0, any_big = 0, all_pos = 1; unsigned odd = 0;
    for (int j = 0; j < kTile; j++) {
      int v = x[t * kTile + j];
      s += v; m = std::max(m, v); odd |= (unsigned)(v & 1) << j; any_big |= v > 90; all_pos &= v >= 0;
    }
    ok = ok && sums[t] == s && maxes[t] == m && votes[t] == (odd ^ (any_big << 30) ^ ((unsigned)all_pos << 31));
  }
  for (int i = 0; i < n; i++) {
    int r = i % kTile, want = (r + 1 < kTile ? x[i + 1] : 0) + x[i - r] + 1000 * ((i % threads) / kTile);
    int pre = 0;
    for (int j = i - r; j <= i; j++) pre += x[j];
    ok = ok && out[i] == want && scan[i] == pre;
  }
  printf("%d %d\n%s\n", sums[0], maxes[0], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
