// Mixed-precision kernels in the style of modern CUDA benchmark programs: __half and __nv_bfloat16 arrays filled
// by host code, half2 vector loads, conversions and intrinsics, a dot product reduced with cooperative groups'
// tiled_partition<32> and cg::reduce, bit-cast intrinsics and a __threadfence before a last-block total.
#include <chrono>
#include <cstring>
#include <random>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "check.h"

namespace cg = cooperative_groups;
constexpr int kThreads = 128;

// y = alpha * x + y on pairs of halves, with __hfma2; z = the same in bfloat16 with scalar operators
__global__ void axpy_half2(const __half2 *x, __half2 *y, const __nv_bfloat16 *bx, __nv_bfloat16 *by,
                           __half alpha, int npairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= npairs) return;
  __half2 a2 = __halves2half2(alpha, alpha);
  y[i] = __hfma2(a2, x[i], y[i]);
  for (int k = 2 * i; k < 2 * i + 2; k++) {
    float a = __half2float(alpha);
    by[k] = __float2bfloat16(a) * bx[k] + by[k];
  }
}

// per-block partial dot products of two half vectors in float, reduced in warp tiles; the last block to finish
// adds the partials (threadfence + an atomic ticket, as CUDA's threadFenceReduction sample does)
__global__ void dot(const __half *a, const __half *b, float *partial, unsigned int *ticket, float *total, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float warp_sums[kThreads / 32];
  __shared__ bool last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? __half2float(a[i]) * __half2float(b[i]) : 0.0f;
  float s = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = s;
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int w = 0; w < kThreads / 32; w++) t += warp_sums[w];
    partial[blockIdx.x] = t;
    __threadfence();
    last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
  }
  block.sync();
  if (last && threadIdx.x == 0) {
    float t = 0;
    for (unsigned int k = 0; k < gridDim.x; k++) t += partial[k];
    *total = t;
  }
}

// bits of halves and floats: sign flips through __float_as_uint/__uint_as_float, __half_as_ushort; the halves
// staged in shared memory and read back in reverse order within the block
__global__ void bits(const __half *a, unsigned short *hb, float *neg, int n) {
  __shared__ __half stage[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? a[i] : __float2half(0.0f);
  __syncthreads();
  if (i >= n) return;
  __half mine = stage[threadIdx.x];
  hb[i] = __half_as_ushort(-mine);
  float f = stage[blockDim.x - 1 - threadIdx.x];  // the conversion operator
  neg[i] = __uint_as_float(__float_as_uint(f) ^ 0x80000000u) + __int_as_float(__float_as_int(1.0f));
}

int main() {
  const int n = 4096, npairs = n / 2;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<__half> x(n), y(n), a(n), b(n);
  std::vector<__nv_bfloat16> bx(n), by(n);
  for (int i = 0; i < n; i++) {
    x[i] = __float2half(dist(gen)); y[i] = __float2half(dist(gen));
    a[i] = __float2half(dist(gen)); b[i] = __float2half(dist(gen));
    bx[i] = __float2bfloat16(dist(gen)); by[i] = __float2bfloat16(dist(gen));
  }
  __half alpha = __float2half(0.75f);
  __half *dx, *dy, *da, *db; __nv_bfloat16 *dbx, *dby;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(__half))); CHECK_CUDA(cudaMalloc(&dy, n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(__half))); CHECK_CUDA(cudaMalloc(&db, n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dbx, n * sizeof(__nv_bfloat16))); CHECK_CUDA(cudaMalloc(&dby, n * sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dbx, bx.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dby, by.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));

  auto t0 = std::chrono::high_resolution_clock::now();
  axpy_half2<<<(npairs + kThreads - 1) / kThreads, kThreads>>>(reinterpret_cast<const __half2 *>(dx),
                                                               reinterpret_cast<__half2 *>(dy), dbx, dby, alpha, npairs);
  const int blocks = (n + kThreads - 1) / kThreads;
  float *partial, *total; unsigned int *ticket;
  CHECK_CUDA(cudaMalloc(&partial, blocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&total, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ticket, sizeof(unsigned int)));
  CHECK_CUDA(cudaMemset(ticket, 0, sizeof(unsigned int)));
  dot<<<blocks, kThreads>>>(da, db, partial, ticket, total, n);
  unsigned short *dhb; float *dneg;
  CHECK_CUDA(cudaMalloc(&dhb, n * sizeof(unsigned short))); CHECK_CUDA(cudaMalloc(&dneg, n * sizeof(float)));
  bits<<<blocks, kThreads>>>(da, dhb, dneg, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::high_resolution_clock::now();

  std::vector<__half> ry(n); std::vector<__nv_bfloat16> rby(n); std::vector<float> rpartial(blocks), rneg(n);
  std::vector<unsigned short> rhb(n); float rtotal;
  CHECK_CUDA(cudaMemcpy(ry.data(), dy, n * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(rby.data(), dby, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(rpartial.data(), partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&rtotal, total, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(rhb.data(), dhb, n * sizeof(unsigned short), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(rneg.data(), dneg, n * sizeof(float), cudaMemcpyDeviceToHost));

  bool ok = true;
  float al = __half2float(alpha);
  for (int i = 0; i < n && ok; i++) {
    // CPU reference: the fused product-sum in float, rounded once to half; bfloat16 by its own rounding
    __half want = __float2half(std::fma(al, __half2float(x[i]), __half2float(y[i])));
    __nv_bfloat16 wb = __float2bfloat16(__bfloat162float(__float2bfloat16(__bfloat162float(__float2bfloat16(al)) *
                                                                          __bfloat162float(bx[i]))) +
                                        __bfloat162float(by[i]));
    unsigned short g, w, gb, wbb;
    memcpy(&g, &ry[i], 2); memcpy(&w, &want, 2); memcpy(&gb, &rby[i], 2); memcpy(&wbb, &wb, 2);
    float fa = __half2float(a[i]), fr = __half2float(a[i - i % kThreads + kThreads - 1 - i % kThreads]);
    unsigned short wneg;
    __half na = __float2half(-fa);
    memcpy(&wneg, &na, 2);
    ok = g == w && gb == wbb && rhb[i] == wneg && rneg[i] == -fr + 1.0f;
    if (!ok) printf("mismatch at %d: %04x %04x %04x %04x %04x %04x\n", i, g, w, gb, wbb, rhb[i], wneg);
  }
  double sum = 0;
  for (int blk = 0; blk < blocks; blk++) {
    double part = 0;
    for (int i = blk * kThreads; i < (blk + 1) * kThreads; i++) part += (double)__half2float(a[i]) * __half2float(b[i]);
    ok = ok && std::fabs(rpartial[blk] - part) < 1e-3;
    sum += rpartial[blk];
  }
  ok = ok && std::fabs(rtotal - sum) < 1e-3;
  printf("dot %.4f, %.3f ms\n%s\n", rtotal, std::chrono::duration<double, std::milli>(t1 - t0).count(),
         ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
