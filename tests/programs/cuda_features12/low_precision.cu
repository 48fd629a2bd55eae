// Low-precision corners: E8M0 scale factors (__nv_fp8_e8m0 and the __nv_cvt_*_e8m0 conversions of CUDA 12.8),
// __half2_raw / __nv_bfloat162_raw conversions, fp8 pairs from raw half pairs, and the compound, unary,
// increment and comparison operators of __half2 / __nv_bfloat162. Checked against a host reference built on
// frexp and plain float arithmetic.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void scales(const float *x, const double *xd, unsigned char *rz, unsigned char *ru, unsigned char *nosat,
                       unsigned char *ctor, unsigned char *from_d, float *back, unsigned short *bf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rz[i] = __nv_cvt_float_to_e8m0(x[i], __NV_SATFINITE, cudaRoundZero);
  ru[i] = __nv_cvt_float_to_e8m0(x[i], __NV_SATFINITE, cudaRoundPosInf);
  nosat[i] = __nv_cvt_float_to_e8m0(x[i], __NV_NOSAT, cudaRoundPosInf);
  __nv_fp8_e8m0 s(x[i]);
  ctor[i] = s.__x;
  from_d[i] = __nv_cvt_double_to_e8m0(xd[i], __NV_SATFINITE, cudaRoundPosInf);
  back[i] = (float)s;
  bf[i] = __nv_cvt_e8m0_to_bf16raw(s.__x).x;
}

__global__ void pairs(const __half2_raw *in, __nv_bfloat162 *b, __half2 *h, unsigned short *fp8, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 v = in[i];                      // from raw bits
  __half2_raw r = v * v;                  // to raw bits
  h[i] = r;
  fp8[i] = __nv_cvt_halfraw2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E4M3);
  __nv_bfloat162 a = __floats2bfloat162_rn((float)v.x, (float)v.y), c = b[i];
  c -= a;
  c /= __float2bfloat162_rn(2.0f);
  c = -c;
  c++;
  b[i] = c;
  __half w = v.x;
  ++w;
  flags[i] = (c == a) + 2 * (a < c) + 4 * (c != a) + 8 * ((float)w == (float)__hadd_rn(v.x, __float2half(1.0f))) +
             16 * ((float)__hmul2_rn(v, v).y == (float)__hmul_rn(v.y, v.y)) +
             32 * (__half2ull_rz(__habs(v.x)) == (unsigned long long)fabsf((float)v.x));
}

static unsigned char ref_e8m0(double x, bool up, bool sat) {
  if (std::isnan(x)) return 0xFF;
  double a = std::fabs(x);
  if (std::isinf(a)) return sat ? 0xFE : 0xFF;
  if (a == 0) return 0;
  int e;
  double f = std::frexp(a, &e);
  int k = e - 1 + (up && f != 0.5);
  if (k + 127 < 0) return 0;
  if (k + 127 > 254) return sat ? 0xFE : 0xFF;
  return (unsigned char)(k + 127);
}

static float bits_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }

int main() {
  const int n = 1200;
  std::vector<float> x(n);
  std::vector<double> xd(n);
  unsigned state = 12345u;
  for (int i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    switch (i % 6) {
    case 0: x[i] = bits_float(state); break;                                    // any float, NaN and inf too
    case 1: x[i] = std::ldexp(1.0f, (int)(state % 300) - 150); break;           // exact powers, subnormals
    case 2: x[i] = std::ldexp(1.0f + (state % 100) / 128.0f, (int)(state % 60) - 30); break;
    case 3: x[i] = -(float)(state % 1000) / 7.0f; break;
    case 4: x[i] = i % 12 == 4 ? 0.0f : std::ldexp(1.5f, 127); break;           // zero, beyond 2^127
    default: x[i] = std::ldexp(1.0f, -127) * (1.0f + (state % 3) / 4.0f); break;
    }
    xd[i] = i % 5 == 0 ? std::ldexp(1.0 + std::ldexp(1.0, -40), (int)(state % 200) - 100) : (double)x[i];
  }
  float *dx, *back;
  double *dxd;
  unsigned char *rz, *ru, *nosat, *ctor, *from_d;
  unsigned short *bf;
  cudaMallocManaged(&dx, n * sizeof(float));
  cudaMallocManaged(&dxd, n * sizeof(double));
  cudaMallocManaged(&back, n * sizeof(float));
  cudaMallocManaged(&bf, n * sizeof(unsigned short));
  cudaMallocManaged(&rz, n); cudaMallocManaged(&ru, n); cudaMallocManaged(&nosat, n);
  cudaMallocManaged(&ctor, n); cudaMallocManaged(&from_d, n);
  std::memcpy(dx, x.data(), n * sizeof(float));
  std::memcpy(dxd, xd.data(), n * sizeof(double));
  scales<<<(n + 127) / 128, 128>>>(dx, dxd, rz, ru, nosat, ctor, from_d, back, bf, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; i++) {
    unsigned char want_ru = ref_e8m0(x[i], true, true);
    float want_back = want_ru == 0xFF ? NAN : std::ldexp(1.0f, want_ru - 127);
    float got_bf;
    unsigned bfbits = (unsigned)bf[i] << 16;
    std::memcpy(&got_bf, &bfbits, 4);
    bool ok = rz[i] == ref_e8m0(x[i], false, true) && ru[i] == want_ru && nosat[i] == ref_e8m0(x[i], true, false) &&
              ctor[i] == want_ru && from_d[i] == ref_e8m0(xd[i], true, true) &&
              (std::isnan(want_back) ? std::isnan(back[i]) && std::isnan(got_bf)
                                     : back[i] == want_back && got_bf == want_back);
    if (!ok && bad++ < 5)
      printf("e8m0 %a (%a): rz %02x ru %02x nosat %02x ctor %02x double %02x back %a\n", x[i], xd[i], rz[i], ru[i],
             nosat[i], ctor[i], from_d[i], back[i]);
  }
  // scale factors of integers, and back to integers
  __nv_fp8_e8m0 a(1000), b(1024u), c(0ull), d(-3ll), e((unsigned long long)1 << 63 | 1);
  bad += a.__x != 137 || b.__x != 137 || c.__x != 0 || d.__x != 129 || e.__x != 191;
  bad += (unsigned int)a != 1024u || (unsigned char)a != 255 || (unsigned short)__nv_fp8_e8m0(0.3f) != 0;

  const int m = 256;
  __half2_raw *in;
  __nv_bfloat162 *bb;
  __half2 *hh;
  unsigned short *f8;
  int *flags;
  cudaMallocManaged(&in, m * sizeof(__half2_raw));
  cudaMallocManaged(&bb, m * sizeof(__nv_bfloat162));
  cudaMallocManaged(&hh, m * sizeof(__half2));
  cudaMallocManaged(&f8, m * sizeof(unsigned short));
  cudaMallocManaged(&flags, m * sizeof(int));
  for (int i = 0; i < m; i++) {
    __half2 v(__float2half((float)(i % 17) - 8.0f), __float2half(0.25f * (i % 9)));
    in[i] = v;
    bb[i] = __floats2bfloat162_rn((float)(i % 5), 3.0f - (float)(i % 7));
  }
  std::vector<__nv_bfloat162> bb0(bb, bb + m);
  pairs<<<(m + 63) / 64, 64>>>(in, bb, hh, f8, flags, m);
  cudaDeviceSynchronize();
  int bad2 = 0;
  for (int i = 0; i < m; i++) {
    float vx = __half2float(__ushort_as_half(in[i].x)), vy = __half2float(__ushort_as_half(in[i].y));
    __nv_bfloat16 ax = __float2bfloat16(vx), ay = __float2bfloat16(vy);
    auto step = [](__nv_bfloat16 c, __nv_bfloat16 a) {
      __nv_bfloat16 t = __float2bfloat16((float)c - (float)a);
      t = __float2bfloat16((float)t / 2.0f);
      return __float2bfloat16(-(float)t + 1.0f);
    };
    __nv_bfloat16 cx = step(bb0[i].x, ax), cy = step(bb0[i].y, ay);
    int want = ((float)cx == (float)ax && (float)cy == (float)ay) + 2 * ((float)ax < (float)cx && (float)ay < (float)cy) +
               4 * ((float)cx != (float)ax && (float)cy != (float)ay) + 8 + 16 + 32;
    __half2_raw hr = hh[i];
    bool ok = (float)bb[i].x == (float)cx && (float)bb[i].y == (float)cy && flags[i] == want &&
              __half2float(__ushort_as_half(hr.x)) == __half2float(__float2half(vx * vx)) &&
              __half2float(__ushort_as_half(hr.y)) == __half2float(__float2half(vy * vy)) &&
              f8[i] == (unsigned short)(__nv_cvt_float_to_fp8(vx, __NV_SATFINITE, __NV_E4M3) |
                                        __nv_cvt_float_to_fp8(vy, __NV_SATFINITE, __NV_E4M3) << 8);
    if (!ok && bad2++ < 5) printf("pair %d: flags %d want %d\n", i, flags[i], want);
  }
  printf("e8m0: %d of %d wrong; pairs: %d of %d wrong\n", bad, n, bad2, m);
  bad += bad2;
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
