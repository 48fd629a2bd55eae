// Layer normalization of __half rows with half2 vector loads: float accumulation (__half22float2), a warp
// shuffle reduction, hrsqrt/hsqrt/hexp/hlog/hrcp math on __half, __hfma2/__hmul2/__hadd2 for the affine
// transform, conversions (__float2half_rn, __half2float, __ushort2half_rn, __half2ushort_rn, __int2half_rn,
// make_half2, __half2half2), comparisons and __hisinf; a float CPU reference with half-precision tolerances.
#include <cmath>
#include <cstdio>
#include <cuda_fp16.h>
#include <random>
#include <vector>
#include "check.h"

__device__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// one warp per row of `cols` halves (cols even)
__global__ void layernorm_half2(const __half *x, const __half *gamma, const __half *beta, __half *y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const __half2 *row = reinterpret_cast<const __half2 *>(x + (size_t)warp * cols);
  float s = 0.f, s2 = 0.f;
  for (int c = lane; c < cols / 2; c += 32) {
    float2 f = __half22float2(row[c]);
    s += f.x + f.y;
    s2 += f.x * f.x + f.y * f.y;
  }
  s = warp_sum(s);
  s2 = warp_sum(s2);
  float mean = s / cols, var = s2 / cols - mean * mean;
  __half inv = hrsqrt(__float2half_rn(var + 1e-5f));
  __half2 inv2 = __half2half2(inv), mean2 = __float2half2_rn(mean);
  const __half2 *g2 = reinterpret_cast<const __half2 *>(gamma), *b2 = reinterpret_cast<const __half2 *>(beta);
  __half2 *out = reinterpret_cast<__half2 *>(y + (size_t)warp * cols);
  for (int c = lane; c < cols / 2; c += 32) out[c] = __hfma2(__hmul2(__hsub2(row[c], mean2), inv2), g2[c], b2[c]);
}

__global__ void half_math(const __half *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half h = a[i], p = __habs(h) + __float2half(0.5f);
  float *o = out + 10 * i;
  o[0] = __half2float(hsqrt(p));
  o[1] = __half2float(hexp(h));
  o[2] = __half2float(hlog(p));
  o[3] = __half2float(hrcp(p));
  o[4] = (float)__half2ushort_rn(__hmul(p, __int2half_rn(10)));
  o[5] = __half2float(__ushort2half_rn((unsigned short)(i % 300)));
  __half2 m = make_half2(h, p);
  o[6] = __low2float(m) + 2.f * __high2float(m);
  o[7] = (h < p) + 2 * (h >= __float2half(0.f)) + 4 * __hisinf(__hdiv(p, __float2half(0.f)));
  o[8] = __half2float(__hmax(h, -p)) + __half2float(__hmin(h, p));
  o[9] = __half2float(h * p - h / p);
}

int main() {
  const int rows = 37, cols = 256;
  std::mt19937 gen(2);
  std::normal_distribution<float> d(0.5f, 2.f);
  std::vector<__half> x(rows * cols), g(cols), b(cols), y(rows * cols);
  std::vector<float> xf(rows * cols), gf(cols), bf(cols);
  for (int i = 0; i < rows * cols; i++) { x[i] = __float2half(d(gen)); xf[i] = __half2float(x[i]); }
  for (int c = 0; c < cols; c++) {
    g[c] = __float2half(1.f + 0.01f * c); gf[c] = __half2float(g[c]);
    b[c] = __float2half(0.1f * (c % 7)); bf[c] = __half2float(b[c]);
  }
  __half *dx, *dg, *db, *dy;
  CHECK_CUDA(cudaMalloc(&dx, x.size() * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dg, cols * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&db, cols * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dy, y.size() * sizeof(__half)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), x.size() * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dg, g.data(), cols * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), cols * sizeof(__half), cudaMemcpyHostToDevice));
  layernorm_half2<<<(rows * 32 + 127) / 128, 128>>>(dx, dg, db, dy, rows, cols);
  CHECK_CUDA(cudaMemcpy(y.data(), dy, y.size() * sizeof(__half), cudaMemcpyDeviceToHost));
  bool ok = true;
  double worst = 0;
  for (int r = 0; r < rows; r++) {
    double s = 0, s2 = 0;
    for (int c = 0; c < cols; c++) { s += xf[r * cols + c]; s2 += xf[r * cols + c] * xf[r * cols + c]; }
    double mean = s / cols, inv = 1 / std::sqrt(s2 / cols - mean * mean + 1e-5);
    for (int c = 0; c < cols; c++) {
      double want = (xf[r * cols + c] - mean) * inv * gf[c] + bf[c];
      double err = std::fabs(__half2float(y[r * cols + c]) - want) / (1 + std::fabs(want));
      worst = std::max(worst, err);
    }
  }
  ok = worst < 2e-2;
  const int n = 600;
  std::vector<__half> a(n);
  for (int i = 0; i < n; i++) a[i] = __float2half(-3.f + 6.f * i / n);
  __half *da; float *dout;
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dout, n * 10 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  half_math<<<(n + 127) / 128, 128>>>(da, dout, n);
  std::vector<float> o(n * 10);
  CHECK_CUDA(cudaMemcpy(o.data(), dout, o.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double h = __half2float(a[i]), p = std::fabs(h) + 0.5;
    double want[10] = {std::sqrt(p), std::exp(h), std::log(p), 1 / p, std::nearbyint((double)__half2float(__float2half((float)(p * 10)))),
                       (double)(i % 300), h + 2 * p, (double)((h < p) + 2 * (h >= 0) + 4), std::max(h, -p) + std::min(h, p),
                       h * p - h / p};
    double tol[10] = {2e-3, 2e-3, 2e-3, 2e-3, 1, 0, 2e-3, 0, 2e-3, 5e-3};
    for (int k = 0; k < 10; k++)
      if (std::fabs(o[i * 10 + k] - want[k]) > tol[k] * (1 + std::fabs(want[k])) && bad++ < 5)
        printf("%d[%d]: %f vs %f\n", i, k, o[i * 10 + k], want[k]);
  }
  ok = ok && bad == 0;
  printf("layernorm worst rel err %.4f, %d math mismatches\n%s\n", worst, bad, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
