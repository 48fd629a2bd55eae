// CUDA's math library and intrinsics as benchmark kernels use them: fast-math intrinsics (__expf, __logf,
// __fdividef, __sinf, __powf), rsqrtf, rcbrtf, __saturatef, fmaf, sincosf, sincospif, norm3df, rnorm3df,
// exp10f, erfcf, lgammaf, rounding conversions (__float2int_rn, __float2int_rz, __double2float_rn, lrintf),
// integer intrinsics (__brev, __umulhi, __mulhi, __mul64hi, __byte_perm, __funnelshift_l/r, __sad, __usad,
// __hadd, __rhadd, __clzll, __popcll, __ffsll); checked against host formulas with tolerances for the
// approximate ones.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "check.h"

__global__ void float_math(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], a = fabsf(v) + 0.5f;
  float s, c, sp, cp;
  sincosf(v, &s, &c);
  sincospif(v, &sp, &cp);
  float *o = out + 20 * i;
  o[0] = __expf(v);
  o[1] = __logf(a);
  o[2] = __fdividef(v, a);
  o[3] = __sinf(v) + __cosf(v);
  o[4] = __powf(a, 1.5f);
  o[5] = rsqrtf(a);
  o[6] = rcbrtf(a);
  o[7] = __saturatef(v);
  o[8] = fmaf(v, a, 1.f);
  o[9] = s * c;
  o[10] = sp + cp;
  o[11] = norm3df(v, a, 2.f);
  o[12] = rnorm3df(v, a, 2.f);
  o[13] = exp10f(v / 4);
  o[14] = erfcf(v);
  o[15] = lgammaf(a);
  o[16] = (float)__float2int_rn(v * 10.f);
  o[17] = (float)__float2int_rz(v * 10.f);
  o[18] = __double2float_rn((double)v * 3.0);
  o[19] = (float)lrintf(v * 7.f);
}

__global__ void int_math(const unsigned *u, unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = u[i], b = u[(i + 1) % n];
  int sa = (int)a, sb = (int)b;
  unsigned long long *o = out + 12 * i;
  o[0] = __brev(a);
  o[1] = __umulhi(a, b);
  o[2] = (unsigned)__mulhi(sa, sb);
  o[3] = __umul64hi((unsigned long long)a * 977, (unsigned long long)b << 20);
  o[4] = __byte_perm(a, b, 0x5140);
  o[5] = __funnelshift_l(a, b, i & 31);
  o[6] = __funnelshift_r(a, b, i & 31);
  o[7] = __usad(a & 0xffff, b & 0xffff, 7u);
  o[8] = (unsigned)__hadd(sa, sb);
  o[9] = (unsigned)__rhadd(sa, sb);
  o[10] = __clzll((unsigned long long)a << 7) + 100 * __popcll((unsigned long long)a * b);
  o[11] = __ffsll((long long)b << 3);
}

static unsigned brev(unsigned x) { unsigned r = 0; for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k); return r; }

int main() {
  const int n = 1000;
  std::vector<float> x(n);
  std::vector<unsigned> u(n);
  for (int i = 0; i < n; i++) { x[i] = -3.f + 6.f * i / n; u[i] = 2654435761u * (i + 1) ^ (i << 7); }
  float *dx, *df; unsigned *du; unsigned long long *di;
  CHECK_CUDA(cudaMalloc(&dx, n * 4)); CHECK_CUDA(cudaMalloc(&df, n * 20 * 4));
  CHECK_CUDA(cudaMalloc(&du, n * 4)); CHECK_CUDA(cudaMalloc(&di, n * 12 * 8));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(du, u.data(), n * 4, cudaMemcpyHostToDevice));
  float_math<<<(n + 127) / 128, 128>>>(dx, df, n);
  int_math<<<(n + 127) / 128, 128>>>(du, di, n);
  std::vector<float> f(n * 20);
  std::vector<unsigned long long> g(n * 12);
  CHECK_CUDA(cudaMemcpy(f.data(), df, f.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(g.data(), di, g.size() * 8, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i], a = std::fabs(v) + 0.5;
    double want[20] = {std::exp(v), std::log(a), v / a, std::sin(v) + std::cos(v), std::pow(a, 1.5),
                       1 / std::sqrt(a), 1 / std::cbrt(a), std::min(1.0, std::max(0.0, v)), v * a + 1,
                       std::sin(v) * std::cos(v), std::sin(M_PI * v) + std::cos(M_PI * v),
                       std::sqrt(v * v + a * a + 4), 1 / std::sqrt(v * v + a * a + 4), std::pow(10.0, v / 4),
                       std::erfc(v), std::lgamma(a), (double)std::lrint(x[i] * 10.f), (double)(int)(x[i] * 10.f),
                       (double)(float)(v * 3.0), (double)std::lrint(x[i] * 7.f)};
    for (int k = 0; k < 20; k++)
      if (std::fabs(f[i * 20 + k] - want[k]) > 2e-5 * (1 + std::fabs(want[k]))) {
        if (bad++ < 5) printf("float %d[%d]: %.8f vs %.8f\n", i, k, f[i * 20 + k], want[k]);
      }
    unsigned a32 = u[i], b32 = u[(i + 1) % n];
    int sa = (int)a32, sb = (int)b32, s = i & 31;
    unsigned long long A = (unsigned long long)a32 * 977, B = (unsigned long long)b32 << 20;
    unsigned long long hi = (unsigned long long)(((unsigned __int128)A * B) >> 64);
    unsigned bytes[8] = {a32 & 255, a32 >> 8 & 255, a32 >> 16 & 255, a32 >> 24, b32 & 255, b32 >> 8 & 255, b32 >> 16 & 255, b32 >> 24};
    unsigned perm = bytes[0] | bytes[4] << 8 | bytes[1] << 16 | bytes[5] << 24;
    unsigned long long wide = (unsigned long long)b32 << 32 | a32;
    unsigned long long prod = (unsigned long long)a32 * b32;
    int ffs = 0;
    for (int k = 0; k < 64; k++) if (((unsigned long long)(long long)b32 << 3) >> k & 1) { ffs = k + 1; break; }
    int clz = 0;
    for (int k = 63; k >= 0 && !(((unsigned long long)a32 << 7) >> k & 1); k--) clz++;
    unsigned long long iwant[12] = {brev(a32), (unsigned)(((unsigned long long)a32 * b32) >> 32),
                                   (unsigned)(int)(((long long)sa * sb) >> 32), hi, perm,
                                   (unsigned)(wide << s >> 32), (unsigned)(wide >> s),
                                   (unsigned)std::abs((int)(a32 & 0xffff) - (int)(b32 & 0xffff)) + 7u,
                                   (unsigned)(int)(((long long)sa + sb) >> 1), (unsigned)(int)(((long long)sa + sb + 1) >> 1),
                                   (unsigned long long)clz + 100 * __builtin_popcountll(prod), (unsigned long long)ffs};
    for (int k = 0; k < 12; k++)
      if (g[i * 12 + k] != iwant[k] && bad++ < 10) printf("int %d[%d]: %llx vs %llx\n", i, k, g[i * 12 + k], iwant[k]);
  }
  printf("%d mismatches\n%s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
