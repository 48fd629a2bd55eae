// The legacy "complete unrolling" block reduction: barriers down to 64 values, then the last warp reduces through
// a volatile pointer without barriers (written for lockstep warps), templated on the block size and the type,
// with a grid-stride first-add; run for several block sizes and a CPU reference (exact for the integers).
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

template <unsigned BS, typename T>
__device__ void warp_tail(volatile T *s, unsigned tid) {
  if (BS >= 64) s[tid] += s[tid + 32];
  if (BS >= 32) s[tid] += s[tid + 16];
  if (BS >= 16) s[tid] += s[tid + 8];
  if (BS >= 8) s[tid] += s[tid + 4];
  if (BS >= 4) s[tid] += s[tid + 2];
  if (BS >= 2) s[tid] += s[tid + 1];
}

template <unsigned BS, typename T>
__global__ void reduce_unrolled(const T *in, T *out, unsigned n) {
  __shared__ T s[BS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BS * 2) + tid, step = BS * 2 * gridDim.x;
  T sum = 0;
  while (i < n) {
    sum += in[i];
    if (i + BS < n) sum += in[i + BS];
    i += step;
  }
  s[tid] = sum;
  __syncthreads();
  if (BS >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
  if (BS >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
  if (BS >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
  if (tid < 32) warp_tail<BS, T>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

template <unsigned BS, typename T>
bool run(const std::vector<T> &h, int blocks) {
  T *d_in, *d_out;
  CHECK_CUDA(cudaMalloc(&d_in, h.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&d_out, blocks * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d_in, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  reduce_unrolled<BS, T><<<blocks, BS>>>(d_in, d_out, (unsigned)h.size());
  std::vector<T> part(blocks);
  CHECK_CUDA(cudaMemcpy(part.data(), d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  cudaFree(d_in);
  cudaFree(d_out);
  // each block's sum on the host, in any order (integers: exact)
  std::vector<T> want(blocks, 0);
  for (size_t i = 0; i < h.size(); i++) want[(i / (2 * BS)) % blocks] += h[i];
  bool ok = true;
  for (int b = 0; b < blocks; b++)
    ok = ok && std::fabs((double)part[b] - (double)want[b]) <= 1e-3 * (1 + std::fabs((double)want[b]));
  printf("block size %3u, %s: %s\n", BS, sizeof(T) == 4 && T(0.5) == 0 ? "int" : "float/double", ok ? "ok" : "wrong");
  return ok;
}

int main() {
  std::mt19937 gen(12);
  std::uniform_int_distribution<int> d(-1000, 1000);
  std::vector<int> hi(300007);
  std::vector<double> hd(123457);
  for (auto &v : hi) v = d(gen);
  for (auto &v : hd) v = d(gen) * 0.001;
  bool ok = run<64, int>(hi, 30) && run<256, double>(hd, 20) && run<512, int>(hi, 8);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
