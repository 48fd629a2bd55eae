// Loops over tiles whose bounds every thread of a block computes into __shared__ variables and reads back
// without a barrier between (the style of kNN-CUDA's distance kernel: `begin_A = BLOCK_DIM * blockIdx.y` stored by
// all threads, then `for (a = begin_A; a <= end_A; ...)` around __syncthreads()), and a block-strided loop around
// barriers (`for (i = threadIdx.x; i < n; i += blockDim.x)`), legal when n is a multiple of the block size. The
// host recomputes both results; with n not a multiple the threads disagree and the program must stop.
#include <cstdio>
#include <cstdlib>
#define B 16
__global__ void tiles(const float *a, float *out, int n, int tiles_per_block)
{
  __shared__ int s_first, s_last;
  __shared__ float tile[B];
  s_first = blockIdx.x * tiles_per_block;   // every thread writes the same bounds, no barrier
  s_last = s_first + tiles_per_block;
  float acc = 0;
  for (int k = s_first; k < s_last; ++k) {
    tile[threadIdx.x] = a[k * B + threadIdx.x];
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % B] * (k + 1);
    __syncthreads();
  }
  out[blockIdx.x * B + threadIdx.x] = acc;
}
__global__ void strided(const float *in, float *out, int n)
{
  __shared__ float s[B];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
  }
}
int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 8 * B;
  int tpb = 3, blocks = 5;
  float *a, *o, *o2;
  cudaMallocManaged(&a, blocks * tpb * B * sizeof(float));
  cudaMallocManaged(&o, blocks * B * sizeof(float));
  cudaMallocManaged(&o2, 1024 * sizeof(float));
  for (int i = 0; i < blocks * tpb * B; i++) a[i] = (i * 7) % 13;
  tiles<<<blocks, B>>>(a, o, 0, tpb);
  strided<<<1, B>>>(a, o2, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < B; t++) {
      float acc = 0;
      for (int k = b * tpb; k < b * tpb + tpb; k++) acc += a[k * B + (t + 1) % B] * (k + 1);
      bad += acc != o[b * B + t];
    }
  for (int i = 0; i < n; i++) bad += o2[i] != a[(i / B) * B + B - 1 - i % B];
  printf("mismatches: %d\n%s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
