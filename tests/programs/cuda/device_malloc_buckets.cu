// Device-side heap: every thread malloc()s a scratch buffer sized by its input, fills and sorts it, writes a
// summary, and free()s it; one thread per block allocates a per-block list that other kernels read later
// (a pointer kept in global memory across launches) and a last kernel frees. cudaDeviceSetLimit for the heap.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "check.h"

struct Summary { int count; int median; long long sum; };

__global__ void per_thread_scratch(const int *lens, const int *seeds, int n, Summary *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int len = lens[i];
  int *buf = (int *)malloc(len * sizeof(int));
  if (buf == nullptr) { out[i].count = -1; return; }
  unsigned x = seeds[i];
  for (int k = 0; k < len; k++) { x = x * 1664525u + 1013904223u; buf[k] = (int)(x >> 16) % 1000; }
  for (int a = 1; a < len; a++) {  // insertion sort
    int v = buf[a], b = a - 1;
    while (b >= 0 && buf[b] > v) { buf[b + 1] = buf[b]; b--; }
    buf[b + 1] = v;
  }
  long long s = 0;
  for (int k = 0; k < len; k++) s += buf[k];
  out[i].count = len;
  out[i].median = buf[len / 2];
  out[i].sum = s;
  free(buf);
}

__device__ float *block_lists[64];

__global__ void make_lists(int per_block) {
  if (threadIdx.x == 0) {
    float *p = static_cast<float *>(malloc(per_block * sizeof(float)));
    for (int k = 0; k < per_block; k++) p[k] = blockIdx.x + 0.25f * k;
    block_lists[blockIdx.x] = p;
  }
}

__global__ void sum_lists(int per_block, float *out) {
  __shared__ float acc[128];
  float *p = block_lists[blockIdx.x];
  float v = 0.f;
  for (int k = threadIdx.x; k < per_block; k += blockDim.x) v += p[k];
  acc[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) acc[threadIdx.x] += acc[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) { out[blockIdx.x] = acc[0]; free(p); block_lists[blockIdx.x] = nullptr; }
}

int main() {
  const int n = 3000;
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
  size_t heap = 0;
  CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  std::mt19937 gen(9);
  std::uniform_int_distribution<int> len_d(1, 200), seed_d(0, 1 << 30);
  std::vector<int> lens(n), seeds(n);
  for (int i = 0; i < n; i++) { lens[i] = len_d(gen); seeds[i] = seed_d(gen); }
  int *d_lens, *d_seeds; Summary *d_out;
  CHECK_CUDA(cudaMalloc(&d_lens, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_seeds, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(Summary)));
  CHECK_CUDA(cudaMemcpy(d_lens, lens.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_seeds, seeds.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  per_thread_scratch<<<(n + 255) / 256, 256>>>(d_lens, d_seeds, n, d_out);
  std::vector<Summary> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, n * sizeof(Summary), cudaMemcpyDeviceToHost));
  bool ok = heap >= (64u << 20);
  for (int i = 0; i < n && ok; i++) {
    std::vector<int> buf(lens[i]);
    unsigned x = seeds[i];
    for (auto &v : buf) { x = x * 1664525u + 1013904223u; v = (int)(x >> 16) % 1000; }
    std::sort(buf.begin(), buf.end());
    long long s = 0;
    for (int v : buf) s += v;
    ok = got[i].count == lens[i] && got[i].median == buf[lens[i] / 2] && got[i].sum == s;
    if (!ok) printf("thread %d: %d %d %lld\n", i, got[i].count, got[i].median, got[i].sum);
  }
  const int blocks = 40, per_block = 1000;
  float *d_sums;
  CHECK_CUDA(cudaMalloc(&d_sums, blocks * sizeof(float)));
  make_lists<<<blocks, 128>>>(per_block);
  sum_lists<<<blocks, 128>>>(per_block, d_sums);
  std::vector<float> sums(blocks);
  CHECK_CUDA(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    double want = 0;
    for (int k = 0; k < per_block; k++) want += b + 0.25 * k;
    ok = ok && std::fabs(sums[b] - want) < 1e-4 * (want + 1);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
