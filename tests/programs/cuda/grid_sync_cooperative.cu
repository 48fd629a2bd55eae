// Cooperative launch with grid-wide synchronization: an iterative 1-D Jacobi relaxation whose sweeps are
// separated by grid.sync(), then a grid-wide norm (block reduction, atomicAdd, grid.sync, one thread scales).
// Sized with the occupancy API and launched with cudaLaunchCooperativeKernel, as the CUDA samples do; a second,
// templated kernel is launched the same way with the kernel passed uncast.
#include <chrono>
#include <cmath>
#include <cooperative_groups.h>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void jacobi_sweeps(float *a, float *b, const float *rhs, int n, int sweeps, float *norm2) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[256];
  for (int s = 0; s < sweeps; s++) {
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
      float left = i > 0 ? a[i - 1] : 0.f, right = i + 1 < (unsigned long long)n ? a[i + 1] : 0.f;
      b[i] = 0.5f * (left + right + rhs[i]);
    }
    grid.sync();
    float *t = a; a = b; b = t;
  }
  float sum = 0.f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) sum += a[i] * a[i];
  partial[block.thread_rank()] = sum;
  block.sync();
  for (unsigned k = block.size() / 2; k > 0; k /= 2) {
    if (block.thread_rank() < k) partial[block.thread_rank()] += partial[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) atomicAdd(norm2, partial[0]);
  grid.sync();
  if (grid.thread_rank() == 0) *norm2 = sqrtf(*norm2);
}

// every block publishes its id, the grid meets, every block reads its neighbour's: wrong without a grid barrier
template <int ROUNDS>
__global__ void ring_exchange(int *slots, int *seen) {
  cg::grid_group grid = cg::this_grid();
  int nb = gridDim.x;
  int value = blockIdx.x;
  for (int r = 0; r < ROUNDS; r++) {
    if (threadIdx.x == 0) slots[blockIdx.x] = value;
    grid.sync();
    int next = slots[(blockIdx.x + 1) % nb];
    grid.sync();
    value = next;
  }
  if (threadIdx.x == 0) seen[blockIdx.x] = value;
}

int main() {
  int dev = 0, sms = 0, per_sm = 0, coop = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int threads = 256;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi_sweeps, threads, 0));
  int blocks = std::min(sms * per_sm, 6);
  if (!coop || blocks < 1) { printf("no cooperative launch\nFAIL\n"); return 1; }

  const int n = 5000, sweeps = 40;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> rhs(n), a(n, 0.f);
  for (auto &v : rhs) v = dist(gen);
  float *d_a, *d_b, *d_rhs, *d_norm;
  CHECK_CUDA(cudaMalloc(&d_a, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_b, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_rhs, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_norm, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_rhs, rhs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_norm, 0, sizeof(float)));
  int n_ = n, sweeps_ = sweeps;
  void *args[] = {&d_a, &d_b, &d_rhs, &n_, &sweeps_, &d_norm};
  auto t0 = std::chrono::high_resolution_clock::now();
  CHECK_CUDA(cudaLaunchCooperativeKernel((void *)jacobi_sweeps, dim3(blocks), dim3(threads), args, 0, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::high_resolution_clock::now();
  float norm;
  CHECK_CUDA(cudaMemcpy(&norm, d_norm, sizeof norm, cudaMemcpyDeviceToHost));
  std::vector<float> b(n);
  for (int s = 0; s < sweeps; s++) {
    for (int i = 0; i < n; i++) b[i] = 0.5f * ((i > 0 ? a[i - 1] : 0.f) + (i + 1 < n ? a[i + 1] : 0.f) + rhs[i]);
    a.swap(b);
  }
  double want = 0;
  for (float v : a) want += (double)v * v;
  want = std::sqrt(want);
  bool ok = std::fabs(norm - want) < 1e-3 * want;
  printf("%d blocks: norm %.5f (want %.5f), %.3f ms\n", blocks, norm, want,
         std::chrono::duration<double, std::milli>(t1 - t0).count());

  int *slots, *seen;
  const int nb = 5;
  CHECK_CUDA(cudaMalloc(&slots, nb * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&seen, nb * sizeof(int)));
  void *args2[] = {&slots, &seen};
  CHECK_CUDA(cudaLaunchCooperativeKernel(ring_exchange<3>, nb, 64, args2));
  std::vector<int> h(nb);
  CHECK_CUDA(cudaMemcpy(h.data(), seen, nb * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < nb; i++) ok = ok && h[i] == (i + 3) % nb;
  printf("ring: %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
