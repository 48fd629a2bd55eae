// Cooperative groups' tiled_partition(block, n) with a tile size known only at run time: per-tile sums through
// shared memory, each tile synchronizing with its own sync(), for tile sizes 4, 8 and 32 read from the command
// line (or defaults); the tile ranks and meta-group ranks are checked too. Against a CPU reference.
#include <chrono>
#include <cstdlib>
#include <random>
#include <vector>
#include <cooperative_groups.h>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void tile_sums(const int *x, int *sums, int *ranks, int n, unsigned width) {
  __shared__ int buf[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, width);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? x[i] : 0;
  tile.sync();
  int base = threadIdx.x - tile.thread_rank(), s = 0;
  for (unsigned k = 0; k < tile.size(); k++) s += buf[base + k];
  tile.sync();
  if (i < n) {
    sums[i] = s;
    ranks[i] = tile.thread_rank() + 1000 * tile.meta_group_rank() + 100000 * (tile.meta_group_size() - 1);
  }
}

int main(int argc, char **argv) {
  const int n = 2048, threads = 256;
  std::mt19937 gen(21);
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<int> x(n), sums(n), ranks(n);
  for (auto &v : x) v = dist(gen);
  int *dx, *ds, *dr;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ds, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dr, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bool ok = true;
  for (unsigned width : {4u, 8u, argc > 1 ? (unsigned)atoi(argv[1]) : 32u}) {
    auto t0 = std::chrono::steady_clock::now();
    tile_sums<<<n / threads, threads>>>(dx, ds, dr, n, width);
    CHECK_CUDA(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    CHECK_CUDA(cudaMemcpy(sums.data(), ds, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ranks.data(), dr, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int t = i % threads, base = i - t % (int)width, s = 0;
      for (unsigned k = 0; k < width; k++) s += x[base + k];
      int want = t % width + 1000 * (t / width) + 100000 * (threads / width - 1);
      ok = ok && sums[i] == s && ranks[i] == want;
    }
    printf("width %u: %.1f us\n", width, std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
