/* polygeist-py: CUDA's 8-bit floating-point types for CPUs (the toolkit's cuda_fp8.h API): __nv_fp8_e4m3 (4
   exponent bits, bias 7, no infinities, S.1111.111 is NaN, largest 448) and __nv_fp8_e5m2 (5 exponent bits,
   bias 15, IEEE-like with infinities, largest 57344), their x2/x4 vectors, and the __nv_cvt_* conversions.
   A value is stored as its 8 bits. Conversions to fp8 round to nearest even; a result beyond the largest
   finite value is that value with __NV_SATFINITE (also for an infinite input), and without saturation NaN for
   e4m3 and infinity for e5m2; NaN gives the NaN code 0x7F. Conversions from fp8 are exact. The arithmetic
   is on doubles (exact here: every step scales by powers of two), the same in host code (the host compiler)
   and device code (pgcc). */
#ifndef PGCC_CUDA_FP8_H
#define PGCC_CUDA_FP8_H
#include "cuda_fp16.h"
#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

/* 2^k for -30 <= k <= 30, exactly */
static inline __host__ __device__ double __pgcc_fp8_pow2(int k) {
  double p = 1.0;
  for (; k > 0; k--) p *= 2.0;
  for (; k < 0; k++) p *= 0.5;
  return p;
}

/* x rounded to the fp8 format `fmt` (nearest, ties to even), as its code */
static inline __host__ __device__ __nv_fp8_storage_t __pgcc_fp8_encode(double x, __nv_saturation_t sat,
                                                                      __nv_fp8_interpretation_t fmt) {
  const int e5m2 = fmt == __NV_E5M2, mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, emin = 1 - bias;
  const double maxnorm = e5m2 ? 57344.0 : 448.0;
  const unsigned char maxcode = e5m2 ? 0x7B : 0x7E;
  if (x != x) return 0x7F;
  unsigned char sign = (x < 0.0 || (x == 0.0 && 1.0 / x < 0.0)) ? 0x80 : 0x00;
  double a = x < 0.0 ? -x : x;
  int overflow = a > 2.0 * maxnorm; /* (infinity too) */
  int code = 0;
  if (!overflow) {
    int E = emin; /* the exponent of a's binade, at least the smallest normal one (subnormals share it) */
    double p = __pgcc_fp8_pow2(emin);
    while (a >= 2.0 * p) { p *= 2.0; E++; }
    double q = p * __pgcc_fp8_pow2(-mbits), n = a / q; /* q: the spacing of the binade; n < 2^(mbits+1) */
    int r = (int)n;
    double d = n - (double)r;
    if (d > 0.5 || (d == 0.5 && (r & 1))) r++;
    if ((double)r * q > maxnorm) overflow = 1;
    else if (r < (1 << mbits)) code = r; /* subnormal (E == emin) or zero */
    else {
      if (r == (2 << mbits)) { r = 1 << mbits; E++; }
      code = ((E + bias) << mbits) | (r - (1 << mbits));
    }
  }
  if (overflow) {
    if (sat == __NV_SATFINITE) return (unsigned char)(sign | maxcode);
    return e5m2 ? (unsigned char)(sign | 0x7C) : (unsigned char)0x7F;
  }
  return (unsigned char)(sign | code);
}

/* the value of fp8 code c of format `fmt` */
static inline __host__ __device__ float __pgcc_fp8_decode(__nv_fp8_storage_t c, __nv_fp8_interpretation_t fmt) {
  const int e5m2 = fmt == __NV_E5M2, mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int e = (c & 0x7F) >> mbits, m = c & ((1 << mbits) - 1);
  if (e5m2 && e == 31) return __pgcc_uint_as_float((c & 0x80 ? 0x80000000u : 0u) | (m ? 0x7fc00000u : 0x7f800000u));
  if (!e5m2 && e == 15 && m == 7) return __pgcc_uint_as_float(0x7fc00000u);
  double v = e == 0 ? (double)m * __pgcc_fp8_pow2(1 - bias - mbits)
                    : (double)((1 << mbits) | m) * __pgcc_fp8_pow2(e - bias - mbits);
  return (float)(c & 0x80 ? -v : v);
}

static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t
    saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return __pgcc_fp8_encode(x, saturate, fp8_interpretation);
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t
    saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return __pgcc_fp8_encode((double)x, saturate, fp8_interpretation);
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__pgcc_fp8_encode(x.x, saturate, fp8_interpretation) |
                                (__pgcc_fp8_encode(x.y, saturate, fp8_interpretation) << 8));
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__pgcc_fp8_encode(x.x, saturate, fp8_interpretation) |
                                (__pgcc_fp8_encode(x.y, saturate, fp8_interpretation) << 8));
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return __pgcc_fp8_encode(__pgcc_h2f_bits(x.x), saturate, fp8_interpretation);
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return __pgcc_fp8_encode(__pgcc_bf2f_bits(x.x), saturate, fp8_interpretation);
}
static inline __host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
    const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw r;  /* (every fp8 value is a binary16 value: exact) */
  r.x = __pgcc_f2h_bits(__pgcc_fp8_decode(x, fp8_interpretation));
  return r;
}
/* the int a float converts to, toward zero, clamped (NaN: 0), as CUDA's __float2int_rz */
static inline __host__ __device__ long long __pgcc_fp8_rz(float f, double lo, double hi) {
  if (f != f) return 0;
  double d = (double)f;
  return d <= lo ? (long long)lo : d >= hi ? (long long)hi : (long long)d;
}

/* an 8-bit type T of format FMT; constructors saturate to the finite range, as the toolkit's do */
#define PGCC_FP8_TYPE(T, FMT)                                                                            \
  struct __align__(1) T {                                                                               \
    __nv_fp8_storage_t __x;                                                                              \
    T() = default;                                                                                       \
    explicit __host__ __device__ T(const float f) : __x(__pgcc_fp8_encode(f, __NV_SATFINITE, FMT)) {}    \
    explicit __host__ __device__ T(const double f) : __x(__pgcc_fp8_encode(f, __NV_SATFINITE, FMT)) {}   \
    explicit __host__ __device__ T(const __half f) : __x(__pgcc_fp8_encode((float)f, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ T(const __nv_bfloat16 f)                                                 \
        : __x(__pgcc_fp8_encode((float)f, __NV_SATFINITE, FMT)) {}                                       \
    explicit __host__ __device__ T(const int v) : __x(__pgcc_fp8_encode((double)v, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ T(const unsigned int v)                                                 \
        : __x(__pgcc_fp8_encode((double)v, __NV_SATFINITE, FMT)) {}                                      \
    explicit __host__ __device__ T(const long long v)                                                    \
        : __x(__pgcc_fp8_encode((double)v, __NV_SATFINITE, FMT)) {}                                      \
    explicit __host__ __device__ T(const short v) : __x(__pgcc_fp8_encode((double)v, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ operator float() const { return __pgcc_fp8_decode(__x, FMT); }         \
    explicit __host__ __device__ operator double() const { return (double)__pgcc_fp8_decode(__x, FMT); } \
    explicit __host__ __device__ operator __half() const { return __half(__pgcc_fp8_decode(__x, FMT)); } \
    explicit __host__ __device__ operator __nv_bfloat16() const {                                        \
      return __nv_bfloat16(__pgcc_fp8_decode(__x, FMT));                                                 \
    }                                                                                                    \
    explicit __host__ __device__ operator bool() const { return (__x & 0x7F) != 0; }                    \
    explicit __host__ __device__ operator int() const {                                                  \
      return (int)__pgcc_fp8_rz(__pgcc_fp8_decode(__x, FMT), -2147483648.0, 2147483647.0);             \
    }                                                                                                    \
    explicit __host__ __device__ operator unsigned int() const {                                         \
      return (unsigned int)__pgcc_fp8_rz(__pgcc_fp8_decode(__x, FMT), 0.0, 4294967295.0);              \
    }                                                                                                    \
    explicit __host__ __device__ operator short() const {                                                \
      return (short)__pgcc_fp8_rz(__pgcc_fp8_decode(__x, FMT), -32768.0, 32767.0);                     \
    }                                                                                                    \
    explicit __host__ __device__ operator unsigned char() const {                                        \
      return (unsigned char)__pgcc_fp8_rz(__pgcc_fp8_decode(__x, FMT), 0.0, 255.0);                    \
    }                                                                                                    \
  };

#define PGCC_FP8X2_TYPE(T2, FMT)                                                                         \
  struct __align__(2) T2 {                                                                              \
    __nv_fp8x2_storage_t __x;                                                                            \
    T2() = default;                                                                                      \
    explicit __host__ __device__ T2(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ T2(const double2 f)                                                     \
        : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, FMT)) {}                                      \
    explicit __host__ __device__ T2(const __half2 f)                                                     \
        : __x((__nv_fp8x2_storage_t)(__pgcc_fp8_encode((float)f.x, __NV_SATFINITE, FMT) |               \
                                     (__pgcc_fp8_encode((float)f.y, __NV_SATFINITE, FMT) << 8))) {}     \
    explicit __host__ __device__ operator float2() const {                                               \
      return make_float2(__pgcc_fp8_decode((__nv_fp8_storage_t)(__x & 0xFF), FMT),                      \
                         __pgcc_fp8_decode((__nv_fp8_storage_t)(__x >> 8), FMT));                       \
    }                                                                                                    \
    explicit __host__ __device__ operator __half2() const {                                              \
      return __half2(__half(__pgcc_fp8_decode((__nv_fp8_storage_t)(__x & 0xFF), FMT)),                  \
                     __half(__pgcc_fp8_decode((__nv_fp8_storage_t)(__x >> 8), FMT)));                   \
    }                                                                                                    \
  };

#define PGCC_FP8X4_TYPE(T4, FMT)                                                                         \
  struct __align__(4) T4 {                                                                              \
    __nv_fp8x4_storage_t __x;                                                                            \
    T4() = default;                                                                                      \
    explicit __host__ __device__ T4(const float4 f)                                                      \
        : __x((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.x, __NV_SATFINITE, FMT) |                       \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.y, __NV_SATFINITE, FMT) << 8) |                \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.z, __NV_SATFINITE, FMT) << 16) |               \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.w, __NV_SATFINITE, FMT) << 24)) {}             \
    explicit __host__ __device__ T4(const double4 f)                                                     \
        : __x((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.x, __NV_SATFINITE, FMT) |                       \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.y, __NV_SATFINITE, FMT) << 8) |                \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.z, __NV_SATFINITE, FMT) << 16) |               \
              ((__nv_fp8x4_storage_t)__pgcc_fp8_encode(f.w, __NV_SATFINITE, FMT) << 24)) {}             \
    explicit __host__ __device__ operator float4() const {                                               \
      return make_float4(__pgcc_fp8_decode((__nv_fp8_storage_t)(__x & 0xFF), FMT),                      \
                         __pgcc_fp8_decode((__nv_fp8_storage_t)((__x >> 8) & 0xFF), FMT),               \
                         __pgcc_fp8_decode((__nv_fp8_storage_t)((__x >> 16) & 0xFF), FMT),              \
                         __pgcc_fp8_decode((__nv_fp8_storage_t)(__x >> 24), FMT));                      \
    }                                                                                                    \
  };

PGCC_FP8_TYPE(__nv_fp8_e4m3, __NV_E4M3)
PGCC_FP8_TYPE(__nv_fp8_e5m2, __NV_E5M2)
PGCC_FP8X2_TYPE(__nv_fp8x2_e4m3, __NV_E4M3)
PGCC_FP8X2_TYPE(__nv_fp8x2_e5m2, __NV_E5M2)
PGCC_FP8X4_TYPE(__nv_fp8x4_e4m3, __NV_E4M3)
PGCC_FP8X4_TYPE(__nv_fp8x4_e5m2, __NV_E5M2)

/* fp16/bf16 pairs to and from fp8 pairs (x low byte, y high byte) */
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__pgcc_fp8_encode(__pgcc_h2f_bits(x.x), saturate, fp8_interpretation) |
                                (__pgcc_fp8_encode(__pgcc_h2f_bits(x.y), saturate, fp8_interpretation) << 8));
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x,
    const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__pgcc_fp8_encode(__pgcc_bf2f_bits(x.x), saturate, fp8_interpretation) |
                                (__pgcc_fp8_encode(__pgcc_bf2f_bits(x.y), saturate, fp8_interpretation) << 8));
}
static inline __host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
    const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw r;
  r.x = __pgcc_f2h_bits(__pgcc_fp8_decode((__nv_fp8_storage_t)(x & 0xFF), fp8_interpretation));
  r.y = __pgcc_f2h_bits(__pgcc_fp8_decode((__nv_fp8_storage_t)(x >> 8), fp8_interpretation));
  return r;
}

/* E8M0 scale factors (CUDA 12.8's __nv_fp8_e8m0, the MX formats' shared scale): code c is 2^(c - 127), 0xFF is
   NaN; no sign and no zero. A conversion rounds |x| to a power of two, down (cudaRoundZero) or up
   (cudaRoundPosInf, what the constructors use); results below 2^-127 become 2^-127, results above 2^127
   become 2^127 with __NV_SATFINITE and NaN without. */
#ifndef __PGCC_CUDA_ROUND_MODE
#define __PGCC_CUDA_ROUND_MODE
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
static inline __host__ __device__ __nv_fp8_storage_t __pgcc_e8m0_encode(double x, __nv_saturation_t saturate,
                                                                       enum cudaRoundMode rounding) {
  if (x != x) return 0xFF;
  double a = x < 0.0 ? -x : x, p = __pgcc_fp8_pow2(-127); /* p: the largest power of two <= a, from 2^-127 */
  int code = 0;
  while (code < 254 && p * 2.0 <= a) { p *= 2.0; code++; }
  int up = rounding == cudaRoundPosInf && a > p;
  if ((code == 254 && a >= 2.0 * p) || (code == 254 && up)) /* (above 2^127; infinity too) */
    return saturate == __NV_SATFINITE ? (__nv_fp8_storage_t)0xFE : (__nv_fp8_storage_t)0xFF;
  return (__nv_fp8_storage_t)(code + up);
}
static inline __host__ __device__ float __pgcc_e8m0_decode(__nv_fp8_storage_t c) {
  return c == 0xFF ? __pgcc_uint_as_float(0x7fffffffu) : c == 0 ? __pgcc_uint_as_float(0x00400000u)
                   : __pgcc_uint_as_float((unsigned int)c << 23);
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_e8m0(const float x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __pgcc_e8m0_encode((double)x, saturate, rounding);
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_e8m0(const double x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __pgcc_e8m0_encode(x, saturate, rounding);
}
static inline __host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(const __nv_bfloat16_raw x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __pgcc_e8m0_encode((double)__pgcc_bf2f_bits(x.x), saturate, rounding);
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(const float2 x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return (__nv_fp8x2_storage_t)(__pgcc_e8m0_encode(x.x, saturate, rounding) |
                                (__pgcc_e8m0_encode(x.y, saturate, rounding) << 8));
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_e8m0x2(const double2 x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return (__nv_fp8x2_storage_t)(__pgcc_e8m0_encode(x.x, saturate, rounding) |
                                (__pgcc_e8m0_encode(x.y, saturate, rounding) << 8));
}
static inline __host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(const __nv_bfloat162_raw x,
    const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return (__nv_fp8x2_storage_t)(__pgcc_e8m0_encode(__pgcc_bf2f_bits(x.x), saturate, rounding) |
                                (__pgcc_e8m0_encode(__pgcc_bf2f_bits(x.y), saturate, rounding) << 8));
}
static inline __host__ __device__ __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x) {
  __nv_bfloat16_raw r; /* (every scale is a bfloat16 value; NaN is the canonical 0x7FFF) */
  r.x = x == 0xFF ? (unsigned short)0x7FFF : x == 0 ? (unsigned short)0x0040 : (unsigned short)(x << 7);
  return r;
}
static inline __host__ __device__ __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x) {
  __nv_bfloat162_raw r;
  r.x = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)(x & 0xFF)).x;
  r.y = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)(x >> 8)).x;
  return r;
}
/* (an integral value of a scale, toward zero and saturated, NaN 0) */
static inline __host__ __device__ unsigned long long __pgcc_e8m0_to_uint(__nv_fp8_storage_t c, double limit,
                                                                         unsigned long long max) {
  double v = (double)__pgcc_e8m0_decode(c); /* (limit: max + 1, a power of two) */
  return c == 0xFF ? 0ull : v >= limit ? max : (unsigned long long)v;
}
/* the e8m0 code of integer magnitude m rounded up: the smallest power of two >= m (exact in a double) */
static inline __host__ __device__ __nv_fp8_storage_t __pgcc_e8m0_from_u64(unsigned long long m) {
  unsigned long long p = 1;
  while (p < m && p < (1ull << 63)) p <<= 1;
  return __pgcc_e8m0_encode(m == 0 ? 0.0 : p < m ? 18446744073709551616.0 : (double)p, __NV_SATFINITE,
                            cudaRoundPosInf);
}
struct __align__(1) __nv_fp8_e8m0 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e8m0() = default;
  explicit __host__ __device__ __nv_fp8_e8m0(const float f) : __x(__pgcc_e8m0_encode(f, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const double f) : __x(__pgcc_e8m0_encode(f, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const __half f)
      : __x(__pgcc_e8m0_encode((float)f, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const __nv_bfloat16 f)
      : __x(__pgcc_e8m0_encode((float)f, __NV_SATFINITE, cudaRoundPosInf)) {}
  /* integers: their exact value rounded up (64-bit ones need not be exact in a double: __pgcc_e8m0_from_u64) */
  explicit __host__ __device__ __nv_fp8_e8m0(const int v) : __x(__pgcc_e8m0_encode((double)v, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const unsigned int v)
      : __x(__pgcc_e8m0_encode((double)v, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const short v) : __x(__pgcc_e8m0_encode((double)v, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const unsigned short v)
      : __x(__pgcc_e8m0_encode((double)v, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const unsigned long long v) : __x(__pgcc_e8m0_from_u64(v)) {}
  explicit __host__ __device__ __nv_fp8_e8m0(const long long v)
      : __x(__pgcc_e8m0_from_u64(v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v)) {}
  explicit __host__ __device__ operator float() const { return __pgcc_e8m0_decode(__x); }
  explicit __host__ __device__ operator double() const { return (double)__pgcc_e8m0_decode(__x); }
  explicit __host__ __device__ operator __half() const { return __half(__pgcc_e8m0_decode(__x)); }
  explicit __host__ __device__ operator __nv_bfloat16() const {
    __nv_bfloat16 b; b.__x = __nv_cvt_e8m0_to_bf16raw(__x).x; return b;
  }
  explicit __host__ __device__ operator unsigned char() const { return (unsigned char)__pgcc_e8m0_to_uint(__x, 256.0, 255ull); }
  explicit __host__ __device__ operator unsigned short() const {
    return (unsigned short)__pgcc_e8m0_to_uint(__x, 65536.0, 65535ull);
  }
  explicit __host__ __device__ operator unsigned int() const {
    return (unsigned int)__pgcc_e8m0_to_uint(__x, 4294967296.0, 4294967295ull);
  }
  explicit __host__ __device__ operator unsigned long long() const {
    return __pgcc_e8m0_to_uint(__x, 18446744073709551616.0, 18446744073709551615ull);
  }
};
#define __CUDA_FP8_TYPES_EXIST__
#endif
