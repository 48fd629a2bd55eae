// Quantization with explicit rounding directions, as fixed-point and mixed-precision codes write it: integers and
// doubles converted to float/double rounded down, up and toward zero (__int2float_rd, __ll2double_ru,
// __double2float_rz, ...) and floats/doubles to integers (__double2ull_ru, __float2ll_rd, ...), on buffers taken
// from the device's default memory pool on a non-blocking stream (cudaMallocAsync/cudaFreeAsync after setting the
// pool's release threshold). The kernel reads its inputs and writes its rows with cache-operator hints (__ldcg,
// __ldca, __ldlu, __ldcv, __ldcs, __stcs on a struct, __stwt). Each conversion is checked bit for bit against the
// host's own conversion under the same rounding mode (fesetround).
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define N 64

struct Out {
  float i2f[3], u2f[3], ll2f[3], ull2f[3], d2f[3], pad; // (no padding bytes: rows compare with memcmp)
  double ll2d[3], ull2d[3];
  long long f2ll[2], d2ll[2];
  unsigned long long f2ull[4], d2ull[4];
  unsigned int d2u[2];
};

__global__ void quantize(const int *iv, const long long *lv, const unsigned long long *uv, const double *dv, Out *o,
                         int n)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int i = __ldcv(iv + k);
  long long l = __ldcg(lv + k);
  unsigned long long u = __ldlu(uv + k);
  double d = __ldca(dv + k) + 0.0 * __ldcs(dv + k);
  float f = (float)fabs(d);
  Out r;
  r.pad = 0.f;
  r.i2f[0] = __int2float_rd(i); r.i2f[1] = __int2float_ru(i); r.i2f[2] = __int2float_rz(i);
  r.u2f[0] = __uint2float_rd((unsigned)i); r.u2f[1] = __uint2float_ru((unsigned)i); r.u2f[2] = __uint2float_rz((unsigned)i);
  r.ll2f[0] = __ll2float_rd(l); r.ll2f[1] = __ll2float_ru(l); r.ll2f[2] = __ll2float_rz(l);
  r.ull2f[0] = __ull2float_rd(u); r.ull2f[1] = __ull2float_ru(u); r.ull2f[2] = __ull2float_rz(u);
  r.d2f[0] = __double2float_rd(d); r.d2f[1] = __double2float_ru(d); r.d2f[2] = __double2float_rz(d);
  r.ll2d[0] = __ll2double_rd(l); r.ll2d[1] = __ll2double_ru(l); r.ll2d[2] = __ll2double_rz(l);
  r.ull2d[0] = __ull2double_rd(u); r.ull2d[1] = __ull2double_ru(u); r.ull2d[2] = __ull2double_rz(u);
  r.f2ll[0] = __float2ll_rd(-f); r.f2ll[1] = __float2ll_ru(-f);
  r.d2ll[0] = __double2ll_rd(d); r.d2ll[1] = __double2ll_ru(d);
  r.f2ull[0] = __float2ull_rd(f); r.f2ull[1] = __float2ull_ru(f); r.f2ull[2] = __float2ull_rz(f); r.f2ull[3] = __float2ull_rn(f);
  double a = fabs(d);
  r.d2ull[0] = __double2ull_rd(a); r.d2ull[1] = __double2ull_ru(a); r.d2ull[2] = __double2ull_rz(a); r.d2ull[3] = __double2ull_rn(a);
  r.d2u[0] = __double2uint_rd(fmin(a, 4e9)); r.d2u[1] = __double2uint_ru(fmin(a, 4e9));
  __stcs(o + k, r);
  __stwt(&o[k].pad, 0.f);
}

// the host's conversion under rounding mode `mode` (volatile: the conversion happens between the mode changes)
template <class R, class T> static R conv(T x, int mode) {
  fesetround(mode);
  volatile T v = x;
  volatile R r = (R)v;
  fesetround(FE_TONEAREST);
  return r;
}
template <class R> static R round_int(double x, int mode) {
  fesetround(mode);
  volatile double v = x;
  volatile double r = nearbyint(v);
  fesetround(FE_TONEAREST);
  return (R)r;
}

int main() {
  int pools = 0;
  cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0);
  if (!pools) { printf("no memory pools\nFAIL\n"); return 1; }
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t threshold = UINT64_MAX, back = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back);

  std::vector<int> iv(N); std::vector<long long> lv(N); std::vector<unsigned long long> uv(N); std::vector<double> dv(N);
  const int ibase[] = {16777217, -16777217, INT_MAX, INT_MIN, 33554435, -1, 0, 123456789};
  const long long lbase[] = {(1LL << 53) + 1, -((1LL << 53) + 1), LLONG_MAX, LLONG_MIN, (1LL << 60) + 12345, 7};
  const unsigned long long ubase[] = {ULLONG_MAX, (1ULL << 63) + 1, (1ULL << 53) + 3, 5};
  const double dbase[] = {0.1, -0.1, 1e39, -1e39, 1e-50, 3.5, -2.5, 4294967295.7, 1e18 + 0.5};
  unsigned s = 12345;
  for (int k = 0; k < N; k++) {
    s = s * 1103515245u + 12345u;
    iv[k] = k < 8 ? ibase[k] : (int)s;
    lv[k] = k < 6 ? lbase[k] : ((long long)s << 31) ^ s;
    uv[k] = k < 4 ? ubase[k] : ((unsigned long long)s << 33) | s;
    dv[k] = k < 9 ? dbase[k] : ((double)(int)s) * 1.000123e-3;
  }

  cudaStream_t st;
  cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  int *di; long long *dl; unsigned long long *du; double *dd; Out *dout;
  cudaMallocAsync(&di, N * sizeof(int), st);
  cudaMallocAsync(&dl, N * sizeof(long long), st);
  cudaMallocAsync(&du, N * sizeof(unsigned long long), st);
  cudaMallocAsync(&dd, N * sizeof(double), st);
  cudaMallocFromPoolAsync(&dout, N * sizeof(Out), pool, st);
  cudaMemcpyAsync(di, iv.data(), N * sizeof(int), cudaMemcpyHostToDevice, st);
  cudaMemcpyAsync(dl, lv.data(), N * sizeof(long long), cudaMemcpyHostToDevice, st);
  cudaMemcpyAsync(du, uv.data(), N * sizeof(unsigned long long), cudaMemcpyHostToDevice, st);
  cudaMemcpyAsync(dd, dv.data(), N * sizeof(double), cudaMemcpyHostToDevice, st);
  quantize<<<(N + 31) / 32, 32, 0, st>>>(di, dl, du, dd, dout, N);
  std::vector<Out> got(N);
  cudaMemcpyAsync(got.data(), dout, N * sizeof(Out), cudaMemcpyDeviceToHost, st);
  cudaFreeAsync(di, st); cudaFreeAsync(dl, st); cudaFreeAsync(du, st); cudaFreeAsync(dd, st); cudaFreeAsync(dout, st);
  cudaStreamSynchronize(st);
  cudaStreamDestroy(st);

  const int modes[3] = {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
  int bad = 0;
  for (int k = 0; k < N; k++) {
    Out e;
    memset(&e, 0, sizeof e);
    double a = fabs(dv[k]);
    float f = (float)a;
    for (int m = 0; m < 3; m++) {
      e.i2f[m] = conv<float>(iv[k], modes[m]);
      e.u2f[m] = conv<float>((unsigned)iv[k], modes[m]);
      e.ll2f[m] = conv<float>(lv[k], modes[m]);
      e.ull2f[m] = conv<float>(uv[k], modes[m]);
      e.d2f[m] = conv<float>(dv[k], modes[m]);
      e.ll2d[m] = conv<double>(lv[k], modes[m]);
      e.ull2d[m] = conv<double>(uv[k], modes[m]);
    }
    e.f2ll[0] = round_int<long long>(-f, FE_DOWNWARD); e.f2ll[1] = round_int<long long>(-f, FE_UPWARD);
    if (a < 9e18) { e.d2ll[0] = round_int<long long>(dv[k], FE_DOWNWARD); e.d2ll[1] = round_int<long long>(dv[k], FE_UPWARD); }
    const int umodes[4] = {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO, FE_TONEAREST};
    for (int m = 0; m < 4; m++) {
      if (f < 1.8e19f) e.f2ull[m] = round_int<unsigned long long>(f, umodes[m]);
      if (a < 1.8e19) e.d2ull[m] = round_int<unsigned long long>(a, umodes[m]);
    }
    e.d2u[0] = round_int<unsigned>(fmin(a, 4e9), FE_DOWNWARD); e.d2u[1] = round_int<unsigned>(fmin(a, 4e9), FE_UPWARD);
    if (a >= 9e18) { memcpy(e.d2ll, got[k].d2ll, sizeof e.d2ll); memcpy(e.f2ll, got[k].f2ll, sizeof e.f2ll); }
    if (f >= 1.8e19f) memcpy(e.f2ull, got[k].f2ull, sizeof e.f2ull);
    if (a >= 1.8e19) memcpy(e.d2ull, got[k].d2ull, sizeof e.d2ull);
    if (memcmp(&e, &got[k], sizeof(Out)) != 0) {
      if (bad++ < 3) printf("mismatch at %d (i=%d l=%lld u=%llu d=%g)\n", k, iv[k], lv[k], uv[k], dv[k]);
    }
  }
  printf("release threshold %s, %d of %d conversions rows differ\n", back == threshold ? "kept" : "lost", bad, N);
  printf("%s\n", bad == 0 && back == threshold ? "PASS" : "FAIL");
  return bad == 0 && back == threshold ? 0 : 1;
}
