// Byte histogram with a per-block shared histogram and global atomics; inputs from <random>.
#include <random>
#include <vector>
#include <cstdio>
#include "check.h"

constexpr int BINS = 64;

__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 100000;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<unsigned char> data(n);
  for (auto &d : data) d = (unsigned char)byte(rng);
  std::vector<unsigned int> ref(BINS, 0), got(BINS);
  for (auto d : data) ref[d % BINS]++;
  unsigned char *dd;
  unsigned int *db;
  CHECK_CUDA(cudaMalloc(&dd, n));
  CHECK_CUDA(cudaMalloc(&db, BINS * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemset(db, 0, BINS * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice));
  histogram<<<30, 256>>>(dd, db, n);
  CHECK_CUDA(cudaMemcpy(got.data(), db, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  bool ok = got == ref;
  printf("bin0 %u bin63 %u\n%s\n", got[0], got[63], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
