// Block-local radix sort of 4-bit keys, one bit per pass, in the style of the CUDA SDK's radix sort:
// each pass ranks the keys with an exclusive warp scan written for lockstep warps (volatile shared memory, no
// barriers inside the warp), then a scan of the warp totals, and scatters the keys. The passes are a loop
// whose bound is a kernel parameter, holding __syncthreads(): the warp scan's stores must still run in lockstep
// order in every pass. Checked against std::stable_sort of each block's keys.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WARP 32
#define THREADS 128

__device__ unsigned warp_exclusive_scan(unsigned val, volatile unsigned *s) {
  int lane_slot = 2 * threadIdx.x - (threadIdx.x & (WARP - 1));  // 64 slots per warp, the first 32 zero
  s[lane_slot] = 0;
  lane_slot += WARP;
  s[lane_slot] = val;
  s[lane_slot] += s[lane_slot - 1];
  s[lane_slot] += s[lane_slot - 2];
  s[lane_slot] += s[lane_slot - 4];
  s[lane_slot] += s[lane_slot - 8];
  s[lane_slot] += s[lane_slot - 16];
  return s[lane_slot] - val;
}

// exclusive rank of this thread's flag among the block's flags; *total receives the number of set flags
__device__ unsigned block_rank(unsigned flag, unsigned *scratch, unsigned *total) {
  unsigned in_warp = warp_exclusive_scan(flag, scratch);
  __syncthreads();
  if ((threadIdx.x & (WARP - 1)) == WARP - 1) scratch[threadIdx.x / WARP] = in_warp + flag;
  __syncthreads();
  if (threadIdx.x < WARP) scratch[threadIdx.x] = warp_exclusive_scan(scratch[threadIdx.x], scratch);
  __syncthreads();
  unsigned rank = in_warp + scratch[threadIdx.x / WARP];
  if (threadIdx.x == blockDim.x - 1) *total = rank + flag;
  __syncthreads();
  return rank;
}

__global__ void sort_blocks(const unsigned *in, unsigned *out, int bits) {
  __shared__ unsigned scratch[2 * THREADS];
  __shared__ unsigned keys[THREADS];
  __shared__ unsigned zeros;
  unsigned key = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int b = 0; b < bits; b++) {
    unsigned is_zero = !((key >> b) & 1);
    unsigned r = block_rank(is_zero, scratch, &zeros);
    unsigned dest = is_zero ? r : zeros + threadIdx.x - r;  // zeros first, both halves in order
    keys[dest] = key;
    __syncthreads();
    key = keys[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = key;
}

int main() {
  const int blocks = 24, n = blocks * THREADS, bits = 4;
  std::vector<unsigned> keys(n), got(n);
  srand(5);
  for (auto &k : keys) k = rand() % 16;
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(unsigned));
  cudaMalloc(&d_out, n * sizeof(unsigned));
  cudaMemcpy(d_in, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  sort_blocks<<<blocks, THREADS>>>(d_in, d_out, bits);
  cudaMemcpy(got.data(), d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    std::vector<unsigned> want(keys.begin() + b * THREADS, keys.begin() + (b + 1) * THREADS);
    std::stable_sort(want.begin(), want.end());
    for (int i = 0; i < THREADS; i++)
      if (got[b * THREADS + i] != want[i] && bad++ < 3)
        printf("block %d position %d: %u, expected %u\n", b, i, got[b * THREADS + i], want[i]);
  }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
