// A three-kernel exclusive scan of a large array (per-block Blelloch scan in shared memory with bank-conflict
// padding, a scan of the block sums, a uniform add), run on two halves in two streams with pinned host memory,
// cudaMemcpyAsync, events timing each stream (cudaEventElapsedTime), cudaStreamSynchronize; std::exclusive_scan
// as the reference.
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
#include "check.h"

#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

template <int B>  // B threads scan 2*B elements
__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned *sums, int n) {
  __shared__ unsigned s[PAD(2 * B) + 1];
  int base = blockIdx.x * 2 * B, t = threadIdx.x;
  int a = t, b = t + B;
  s[PAD(a)] = base + a < n ? in[base + a] : 0u;
  s[PAD(b)] = base + b < n ? in[base + b] : 0u;
  int offset = 1;
  for (int d = B; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      s[PAD(bi)] += s[PAD(ai)];
    }
    offset <<= 1;
  }
  if (t == 0) {
    if (sums) sums[blockIdx.x] = s[PAD(2 * B - 1)];
    s[PAD(2 * B - 1)] = 0;
  }
  for (int d = 1; d < 2 * B; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned v = s[PAD(ai)];
      s[PAD(ai)] = s[PAD(bi)];
      s[PAD(bi)] += v;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[PAD(a)];
  if (base + b < n) out[base + b] = s[PAD(b)];
}

__global__ void add_block_offsets(unsigned *out, const unsigned *offsets, int n, int per_block) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += offsets[i / per_block];
}

int main() {
  constexpr int B = 256, PER = 2 * B;
  const int n = 2 * PER * PER - 1234;  // two halves, each at most PER blocks so one pass scans the block sums
  const int half[2] = {n / 2, n - n / 2};
  std::mt19937 gen(77);
  std::uniform_int_distribution<unsigned> d(0, 100);
  unsigned *h_in, *h_out;
  CHECK_CUDA(cudaMallocHost(&h_in, n * sizeof(unsigned)));
  CHECK_CUDA(cudaHostAlloc((void **)&h_out, n * sizeof(unsigned), cudaHostAllocDefault));
  for (int i = 0; i < n; i++) h_in[i] = d(gen);
  cudaStream_t st[2];
  cudaEvent_t start[2], stop[2];
  unsigned *d_in[2], *d_out[2], *d_sums[2], *d_offs[2];
  for (int k = 0; k < 2; k++) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreate(&start[k]));
    CHECK_CUDA(cudaEventCreate(&stop[k]));
    CHECK_CUDA(cudaMalloc(&d_in[k], half[k] * sizeof(unsigned)));
    CHECK_CUDA(cudaMalloc(&d_out[k], half[k] * sizeof(unsigned)));
    CHECK_CUDA(cudaMalloc(&d_sums[k], PER * sizeof(unsigned)));
    CHECK_CUDA(cudaMalloc(&d_offs[k], PER * sizeof(unsigned)));
  }
  for (int k = 0; k < 2; k++) {
    int m = half[k], blocks = (m + PER - 1) / PER;
    CHECK_CUDA(cudaEventRecord(start[k], st[k]));
    CHECK_CUDA(cudaMemcpyAsync(d_in[k], h_in + k * half[0], m * sizeof(unsigned), cudaMemcpyHostToDevice, st[k]));
    scan_blocks<B><<<blocks, B, 0, st[k]>>>(d_in[k], d_out[k], d_sums[k], m);
    scan_blocks<B><<<1, B, 0, st[k]>>>(d_sums[k], d_offs[k], nullptr, blocks);
    add_block_offsets<<<(m + 255) / 256, 256, 0, st[k]>>>(d_out[k], d_offs[k], m, PER);
    CHECK_CUDA(cudaMemcpyAsync(h_out + k * half[0], d_out[k], m * sizeof(unsigned), cudaMemcpyDeviceToHost, st[k]));
    CHECK_CUDA(cudaEventRecord(stop[k], st[k]));
  }
  bool ok = true;
  for (int k = 0; k < 2; k++) {
    CHECK_CUDA(cudaStreamSynchronize(st[k]));
    float ms = -1;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start[k], stop[k]));
    ok = ok && ms >= 0;
    std::vector<unsigned> want(half[k]);
    std::exclusive_scan(h_in + k * half[0], h_in + k * half[0] + half[k], want.begin(), 0u);
    for (int i = 0; i < half[k]; i++)
      if (h_out[k * half[0] + i] != want[i]) {
        if (ok) printf("stream %d: at %d %u vs %u\n", k, i, h_out[k * half[0] + i], want[i]);
        ok = false;
      }
    printf("stream %d: %d elements, %.3f ms\n", k, half[k], ms);
  }
  for (int k = 0; k < 2; k++) {
    cudaFree(d_in[k]); cudaFree(d_out[k]); cudaFree(d_sums[k]); cudaFree(d_offs[k]);
    cudaStreamDestroy(st[k]); cudaEventDestroy(start[k]); cudaEventDestroy(stop[k]);
  }
  cudaFreeHost(h_in); cudaFreeHost(h_out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
