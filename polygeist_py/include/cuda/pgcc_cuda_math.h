/* polygeist-py: the CUDA math library for device code. CUDA device code calls the math.h functions and their
   C++ float overloads; clang's force_cuda_host_device pragma makes every declaration of the C and C++ math
   headers callable from host and device code (as clang's own CUDA wrappers do). pgcc maps each call to the MLIR
   math dialect by name and operand type, so declarations are all that is needed. */
#ifndef PGCC_CUDA_MATH_H
#define PGCC_CUDA_MATH_H

#if defined(__cplusplus) && __has_include(<bits/stl_algobase.h>)
/* libstdc++'s <cmath> pulls in its configuration, <exception> and its algorithm base; declared here first,
   outside the pragma, they stay host functions, as the rest of the C++ library (<iostream>) redeclares them
   (clang's <new> wrapper, pulled in by <exception>, wants malloc declared before it) */
#include <stdlib.h>
#include <bits/c++config.h>
#include <exception>
#include <bits/stl_algobase.h>
#endif
#ifdef __clang__
#pragma clang force_cuda_host_device begin
#endif
#include <math.h>
#include <stdlib.h>

/* CUDA-only functions and fast intrinsics */
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
float __expf(float); float __logf(float); float __sinf(float); float __cosf(float);
float __powf(float, float); float __fdividef(float, float);
/* More of CUDA's device math library, in terms of the C library (rounding suffixes _rn are IEEE's default
   rounding; the directed ones _rz/_rd/_ru of arithmetic follow below) */
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float __saturatef(float x) { return x >= 0.0f ? (x <= 1.0f ? x : 1.0f) : 0.0f; }
static inline float sinpif(float x) { return (float)sin(3.14159265358979323846 * (double)x); }
static inline float cospif(float x) { return (float)cos(3.14159265358979323846 * (double)x); }
static inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
static inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static inline void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
static inline float norm3df(float a, float b, float c) { return (float)sqrt((double)a * a + (double)b * b + (double)c * c); }
static inline float rnorm3df(float a, float b, float c) { return (float)(1.0 / sqrt((double)a * a + (double)b * b + (double)c * c)); }
static inline float norm4df(float a, float b, float c, float d) {
  return (float)sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d);
}
static inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
static inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
static inline double rnorm3d(double a, double b, double c) { return 1.0 / sqrt(a * a + b * b + c * c); }
static inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
static inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline float __frsqrt_rn(float a) { return 1.0f / sqrtf(a); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float __fmaf_ieee_rn(float a, float b, float c) { return fmaf(a, b, c); }
/* Directed rounding (_rz toward zero, _rd down, _ru up): each operation is one call of pgcc's runtime
   (runtime/pgcc_cuda_runtime.c), which performs it with the CPU's rounding mode set to the one named, so the
   result is the IEEE-754 correctly rounded one; the mode argument is 1 (rz), 2 (rd) or 3 (ru). */
#ifdef __cplusplus
extern "C" {
#endif
float __pgcc_fop_rounded(int op, int mode, float a, float b, float c);
double __pgcc_dop_rounded(int op, int mode, double a, double b, double c);
#ifdef __cplusplus
}
#endif
/* op: 0 add, 1 sub, 2 mul, 3 div, 4 reciprocal, 5 square root, 6 fused multiply-add */
#define __PGCC_DIRECTED(S, M)                                                                                  \
  static inline float __fadd_##S(float a, float b) { return __pgcc_fop_rounded(0, M, a, b, 0.0f); }           \
  static inline float __fsub_##S(float a, float b) { return __pgcc_fop_rounded(1, M, a, b, 0.0f); }           \
  static inline float __fmul_##S(float a, float b) { return __pgcc_fop_rounded(2, M, a, b, 0.0f); }           \
  static inline float __fdiv_##S(float a, float b) { return __pgcc_fop_rounded(3, M, a, b, 0.0f); }           \
  static inline float __frcp_##S(float a) { return __pgcc_fop_rounded(4, M, a, 0.0f, 0.0f); }                 \
  static inline float __fsqrt_##S(float a) { return __pgcc_fop_rounded(5, M, a, 0.0f, 0.0f); }                \
  static inline float __fmaf_##S(float a, float b, float c) { return __pgcc_fop_rounded(6, M, a, b, c); }     \
  static inline float __fmaf_ieee_##S(float a, float b, float c) { return __pgcc_fop_rounded(6, M, a, b, c); }\
  static inline double __dadd_##S(double a, double b) { return __pgcc_dop_rounded(0, M, a, b, 0.0); }         \
  static inline double __dsub_##S(double a, double b) { return __pgcc_dop_rounded(1, M, a, b, 0.0); }         \
  static inline double __dmul_##S(double a, double b) { return __pgcc_dop_rounded(2, M, a, b, 0.0); }         \
  static inline double __ddiv_##S(double a, double b) { return __pgcc_dop_rounded(3, M, a, b, 0.0); }         \
  static inline double __drcp_##S(double a) { return __pgcc_dop_rounded(4, M, a, 0.0, 0.0); }                 \
  static inline double __dsqrt_##S(double a) { return __pgcc_dop_rounded(5, M, a, 0.0, 0.0); }                \
  static inline double __fma_##S(double a, double b, double c) { return __pgcc_dop_rounded(6, M, a, b, c); }
__PGCC_DIRECTED(rz, 1)
__PGCC_DIRECTED(rd, 2)
__PGCC_DIRECTED(ru, 3)
#undef __PGCC_DIRECTED
/* conversions: _rn rounds to nearest even, _rz truncates, _rd/_ru round down/up */
static inline int __float2int_rn(float x) { return (int)rintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
static inline unsigned int __float2uint_rn(float x) { return (unsigned int)rintf(x); }
static inline unsigned int __float2uint_rz(float x) { return (unsigned int)x; }
static inline unsigned int __float2uint_rd(float x) { return (unsigned int)floorf(x); }
static inline unsigned int __float2uint_ru(float x) { return (unsigned int)ceilf(x); }
static inline long long __float2ll_rn(float x) { return (long long)rintf(x); }
static inline long long __float2ll_rz(float x) { return (long long)x; }
static inline int __double2int_rn(double x) { return (int)rint(x); }
static inline int __double2int_rz(double x) { return (int)x; }
static inline int __double2int_rd(double x) { return (int)floor(x); }
static inline int __double2int_ru(double x) { return (int)ceil(x); }
static inline unsigned int __double2uint_rn(double x) { return (unsigned int)rint(x); }
static inline unsigned int __double2uint_rz(double x) { return (unsigned int)x; }
static inline long long __double2ll_rn(double x) { return (long long)rint(x); }
static inline long long __double2ll_rz(double x) { return (long long)x; }
static inline float __double2float_rn(double x) { return (float)x; }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned int x) { return (float)x; }
static inline float __ll2float_rn(long long x) { return (float)x; }
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __uint2double_rn(unsigned int x) { return (double)x; }
static inline double __ll2double_rn(long long x) { return (double)x; }
#include "pgcc_cuda_convert.h"
/* integer intrinsics */
static inline unsigned int __brev(unsigned int x) {
  x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
  x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
  x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
  x = (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
  return x >> 16 | x << 16;
}
static inline unsigned long long __brevll(unsigned long long x) {
  return (unsigned long long)__brev((unsigned int)x) << 32 | __brev((unsigned int)(x >> 32));
}
static inline unsigned int __umulhi(unsigned int a, unsigned int b) { return (unsigned int)((unsigned long long)a * b >> 32); }
static inline int __mulhi(int a, int b) { return (int)((long long)a * b >> 32); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  unsigned long long al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  unsigned long long ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  unsigned long long mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static inline long long __mul64hi(long long a, long long b) {
  unsigned long long hi = __umul64hi((unsigned long long)a, (unsigned long long)b);
  if (a < 0) hi -= (unsigned long long)b;
  if (b < 0) hi -= (unsigned long long)a;
  return (long long)hi;
}
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long bytes = (unsigned long long)y << 32 | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; n++)
    r |= (unsigned int)(bytes >> (8 * (s >> (4 * n) & 7)) & 0xffu) << (8 * n);
  return r;
}
static inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) << (shift & 31) >> 32);
}
static inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) << (shift < 32 ? shift : 32) >> 32);
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
static inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (shift < 32 ? shift : 32));
}
static inline unsigned int __sad(int x, int y, unsigned int z) { return (x > y ? (unsigned int)(x - y) : (unsigned int)(y - x)) + z; }
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
/* The inverse error functions and the normal distribution (CUDA's erfinv, erfcinv, normcdf, normcdfinv, erfcx and
   the modified Bessel functions I0, I1), which the C library lacks. erfcinv starts from Winitzki's closed-form
   approximation (S. Winitzki, "A handy approximation for the error function and its inverse", 2008; relative error
   below 2e-3) and refines it with Halley's method on erfc(y) = c, whose derivatives are f' = -2/sqrt(pi) exp(-y^2)
   and f'' = -2y f' (the error cubes each step; three steps reach double precision, a few more in the far tail). Working on erfc keeps the
   relative accuracy of tiny c (tails near erfinv(+-1)). The float versions round the double result. */
static inline double pgcc_erfcinv_pos(double c) { /* 0 < c <= 1: the root y >= 0 of erfc(y) = c */
  double l = log(c * (2.0 - c)), t = 2.0 / (3.14159265358979323846 * 0.147) + 0.5 * l;
  double y = sqrt(sqrt(t * t - l / 0.147) - t);
  for (int k = 0; k < 8; k++) { /* (the far tail starts further off: a few more steps there) */
    double d = -1.1283791670955126 * exp(-y * y); /* erfc'(y) */
    double q = (erfc(y) - c) / d;
    y -= q / (1.0 + y * q);
    if (fabs(q) <= 1e-17 * y) break;
  }
  return y;
}
static inline double erfcinv(double c) {
  if (!(c >= 0.0 && c <= 2.0)) return NAN;
  if (c == 0.0) return INFINITY;
  if (c == 2.0) return -INFINITY;
  if (c == 1.0) return 0.0;
  return c < 1.0 ? pgcc_erfcinv_pos(c) : -pgcc_erfcinv_pos(2.0 - c);
}
static inline double erfinv(double x) {
  if (!(x >= -1.0 && x <= 1.0)) return NAN;
  if (x == 0.0) return x;
  if (fabs(x) >= 0.5) return x > 0 ? erfcinv(1.0 - x) : -erfcinv(1.0 + x); /* (1 - |x| is exact here) */
  double l = log((1.0 - x) * (1.0 + x)), t = 2.0 / (3.14159265358979323846 * 0.147) + 0.5 * l;
  double y = copysign(sqrt(sqrt(t * t - l / 0.147) - t), x);
  for (int k = 0; k < 3; k++) { /* Halley on erf(y) = x: f' = 2/sqrt(pi) exp(-y^2), f'' = -2y f' */
    double q = (erf(y) - x) / (1.1283791670955126 * exp(-y * y));
    y -= q / (1.0 + y * q);
  }
  return y;
}
static inline float erfinvf(float x) { return (float)erfinv((double)x); }
static inline float erfcinvf(float x) { return (float)erfcinv((double)x); }
static inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
static inline float normcdff(float x) { return (float)normcdf((double)x); }
static inline double normcdfinv(double p) { return -1.41421356237309504880 * erfcinv(2.0 * p); }
static inline float normcdfinvf(float p) { return (float)normcdfinv((double)p); }
static inline double erfcx(double x) { /* exp(x^2) erfc(x); the asymptotic series where exp(x^2) would overflow */
  if (x < 26.0) return exp(x * x) * erfc(x);
  double h = 0.5 / (x * x), term = 1.0, sum = 1.0; /* 1 + sum (-1)^n (2n-1)!! / (2x^2)^n, x >= 26: terms fall */
  for (int n = 1; n < 40 && fabs(term) > 1e-18; n++) { term *= -(2 * n - 1) * h; sum += term; }
  return 0.56418958354775628695 / x * sum;
}
static inline float erfcxf(float x) { return (float)erfcx((double)x); }
static inline double cyl_bessel_i0(double x) { /* sum (x^2/4)^k / (k!)^2: positive terms, no cancellation */
  double q = 0.25 * x * x, term = 1.0, sum = 1.0;
  for (int k = 1; k < 1000 && term > sum * 1e-17; k++) { term *= q / ((double)k * k); sum += term; }
  return sum;
}
static inline double cyl_bessel_i1(double x) { /* (x/2) sum (x^2/4)^k / (k! (k+1)!) */
  double q = 0.25 * x * x, term = 1.0, sum = 1.0;
  for (int k = 1; k < 1000 && term > sum * 1e-17; k++) { term *= q / ((double)k * (k + 1)); sum += term; }
  return 0.5 * x * sum;
}
static inline float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0((double)x); }
static inline float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1((double)x); }
static inline float fdividef(float a, float b) { return a / b; }
/* Euclidean norms of a vector given as a length and an array (CUDA's norm, rnorm, normf, rnormf) */
static inline double norm(int dim, const double *p) { double s = 0; for (int i = 0; i < dim; i++) s += p[i] * p[i]; return sqrt(s); }
static inline double rnorm(int dim, const double *p) { return 1.0 / norm(dim, p); }
static inline float normf(int dim, const float *p) { double s = 0; for (int i = 0; i < dim; i++) s += (double)p[i] * p[i]; return (float)sqrt(s); }
static inline float rnormf(int dim, const float *p) { return 1.0f / normf(dim, p); }
/* SIMD video intrinsics: the four bytes (suffix 4) or two halfwords (suffix 2) of a word as lanes, each lane
   computed on its own (signed lanes for s, unsigned for u; add and sub wrap within the lane) */
#define PGCC_SIMD_LANES(NAME, LANES, BITS, SIGNED_T, UNSIGNED_T, EXPR)                                   \
  static inline unsigned int NAME(unsigned int a, unsigned int b) {                                      \
    unsigned int r = 0;                                                                                  \
    for (int k = 0; k < LANES; k++) {                                                                    \
      SIGNED_T sa = (SIGNED_T)(a >> (BITS * k)), sb = (SIGNED_T)(b >> (BITS * k));                       \
      UNSIGNED_T ua = (UNSIGNED_T)(a >> (BITS * k)), ub = (UNSIGNED_T)(b >> (BITS * k));                 \
      (void)sa; (void)sb; (void)ua; (void)ub;                                                            \
      r |= (unsigned int)(UNSIGNED_T)(EXPR) << (BITS * k);                                               \
    }                                                                                                    \
    return r;                                                                                            \
  }
PGCC_SIMD_LANES(__vmaxs4, 4, 8, signed char, unsigned char, sa > sb ? sa : sb)
PGCC_SIMD_LANES(__vmins4, 4, 8, signed char, unsigned char, sa < sb ? sa : sb)
PGCC_SIMD_LANES(__vmaxu4, 4, 8, signed char, unsigned char, ua > ub ? ua : ub)
PGCC_SIMD_LANES(__vminu4, 4, 8, signed char, unsigned char, ua < ub ? ua : ub)
PGCC_SIMD_LANES(__vadd4, 4, 8, signed char, unsigned char, ua + ub)
PGCC_SIMD_LANES(__vsub4, 4, 8, signed char, unsigned char, ua - ub)
PGCC_SIMD_LANES(__vabsdiffu4, 4, 8, signed char, unsigned char, ua > ub ? ua - ub : ub - ua)
PGCC_SIMD_LANES(__vabsdiffs4, 4, 8, signed char, unsigned char, sa > sb ? sa - sb : sb - sa)
PGCC_SIMD_LANES(__vmaxs2, 2, 16, short, unsigned short, sa > sb ? sa : sb)
PGCC_SIMD_LANES(__vmins2, 2, 16, short, unsigned short, sa < sb ? sa : sb)
PGCC_SIMD_LANES(__vmaxu2, 2, 16, short, unsigned short, ua > ub ? ua : ub)
PGCC_SIMD_LANES(__vminu2, 2, 16, short, unsigned short, ua < ub ? ua : ub)
PGCC_SIMD_LANES(__vadd2, 2, 16, short, unsigned short, ua + ub)
PGCC_SIMD_LANES(__vsub2, 2, 16, short, unsigned short, ua - ub)
PGCC_SIMD_LANES(__vabsdiffu2, 2, 16, short, unsigned short, ua > ub ? ua - ub : ub - ua)
/* comparisons per lane: __vcmpXX gives all ones in a lane where the comparison holds, __vsetXX gives 1 */
PGCC_SIMD_LANES(__vcmpeq4, 4, 8, signed char, unsigned char, ua == ub ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpne4, 4, 8, signed char, unsigned char, ua != ub ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpges4, 4, 8, signed char, unsigned char, sa >= sb ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpgts4, 4, 8, signed char, unsigned char, sa > sb ? 0xff : 0)
PGCC_SIMD_LANES(__vcmples4, 4, 8, signed char, unsigned char, sa <= sb ? 0xff : 0)
PGCC_SIMD_LANES(__vcmplts4, 4, 8, signed char, unsigned char, sa < sb ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpgeu4, 4, 8, signed char, unsigned char, ua >= ub ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpgtu4, 4, 8, signed char, unsigned char, ua > ub ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpleu4, 4, 8, signed char, unsigned char, ua <= ub ? 0xff : 0)
PGCC_SIMD_LANES(__vcmpltu4, 4, 8, signed char, unsigned char, ua < ub ? 0xff : 0)
PGCC_SIMD_LANES(__vseteq4, 4, 8, signed char, unsigned char, ua == ub)
PGCC_SIMD_LANES(__vsetne4, 4, 8, signed char, unsigned char, ua != ub)
PGCC_SIMD_LANES(__vsetges4, 4, 8, signed char, unsigned char, sa >= sb)
PGCC_SIMD_LANES(__vsetgts4, 4, 8, signed char, unsigned char, sa > sb)
PGCC_SIMD_LANES(__vsetles4, 4, 8, signed char, unsigned char, sa <= sb)
PGCC_SIMD_LANES(__vsetlts4, 4, 8, signed char, unsigned char, sa < sb)
PGCC_SIMD_LANES(__vsetgeu4, 4, 8, signed char, unsigned char, ua >= ub)
PGCC_SIMD_LANES(__vsetgtu4, 4, 8, signed char, unsigned char, ua > ub)
PGCC_SIMD_LANES(__vsetleu4, 4, 8, signed char, unsigned char, ua <= ub)
PGCC_SIMD_LANES(__vsetltu4, 4, 8, signed char, unsigned char, ua < ub)
PGCC_SIMD_LANES(__vavgu4, 4, 8, signed char, unsigned char, (ua + ub + 1) >> 1)
PGCC_SIMD_LANES(__vavgs4, 4, 8, signed char, unsigned char, (sa + sb + ((sa + sb) >= 0)) >> 1)
PGCC_SIMD_LANES(__vcmpeq2, 2, 16, short, unsigned short, ua == ub ? 0xffff : 0)
PGCC_SIMD_LANES(__vcmpne2, 2, 16, short, unsigned short, ua != ub ? 0xffff : 0)
PGCC_SIMD_LANES(__vcmpgts2, 2, 16, short, unsigned short, sa > sb ? 0xffff : 0)
PGCC_SIMD_LANES(__vcmplts2, 2, 16, short, unsigned short, sa < sb ? 0xffff : 0)
PGCC_SIMD_LANES(__vcmpgtu2, 2, 16, short, unsigned short, ua > ub ? 0xffff : 0)
PGCC_SIMD_LANES(__vcmpltu2, 2, 16, short, unsigned short, ua < ub ? 0xffff : 0)
PGCC_SIMD_LANES(__vseteq2, 2, 16, short, unsigned short, ua == ub)
PGCC_SIMD_LANES(__vsetne2, 2, 16, short, unsigned short, ua != ub)
PGCC_SIMD_LANES(__vsetgts2, 2, 16, short, unsigned short, sa > sb)
PGCC_SIMD_LANES(__vsetlts2, 2, 16, short, unsigned short, sa < sb)
PGCC_SIMD_LANES(__vsetgtu2, 2, 16, short, unsigned short, ua > ub)
PGCC_SIMD_LANES(__vsetltu2, 2, 16, short, unsigned short, ua < ub)
PGCC_SIMD_LANES(__vavgu2, 2, 16, short, unsigned short, (ua + ub + 1) >> 1)
#undef PGCC_SIMD_LANES
/* byte and halfword dot products with a 32-bit accumulator (sm_61's __dp4a/__dp2a; signed lanes for int
   operands, unsigned for unsigned ones; the sum wraps as the 32-bit addition does) */
static inline int __dp4a(int a, int b, int c) {
  for (int k = 0; k < 4; k++) c = (int)((unsigned int)c + (unsigned int)((int)(signed char)(a >> (8 * k)) * (int)(signed char)(b >> (8 * k))));
  return c;
}
static inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int k = 0; k < 4; k++) c += (unsigned int)(unsigned char)(a >> (8 * k)) * (unsigned char)(b >> (8 * k));
  return c;
}
static inline int __dp2a_lo(int a, int b, int c) {
  for (int k = 0; k < 2; k++) c = (int)((unsigned int)c + (unsigned int)((int)(short)(a >> (16 * k)) * (int)(signed char)(b >> (8 * k))));
  return c;
}
static inline int __dp2a_hi(int a, int b, int c) {
  for (int k = 0; k < 2; k++) c = (int)((unsigned int)c + (unsigned int)((int)(short)(a >> (16 * k)) * (int)(signed char)(b >> (8 * k + 16))));
  return c;
}
static inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) {
  for (int k = 0; k < 2; k++) c += (unsigned int)(unsigned short)(a >> (16 * k)) * (unsigned char)(b >> (8 * k));
  return c;
}
static inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) {
  for (int k = 0; k < 2; k++) c += (unsigned int)(unsigned short)(a >> (16 * k)) * (unsigned char)(b >> (8 * k + 16));
  return c;
}
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned int __uhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b) >> 1); }
static inline unsigned int __urhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b + 1) >> 1); }
/* CUDA's min/max overload set (its math_functions.hpp): every integer width, float and double, and the mixed
   signed/unsigned and float/double pairs, which convert as the usual arithmetic conversions do */
#define PGCC_MINMAX(R, A, B)                                                                        \
  static inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                             \
  static inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
PGCC_MINMAX(int, int, int)
PGCC_MINMAX(unsigned int, unsigned int, unsigned int)
PGCC_MINMAX(unsigned int, int, unsigned int)
PGCC_MINMAX(unsigned int, unsigned int, int)
PGCC_MINMAX(long, long, long)
PGCC_MINMAX(unsigned long, unsigned long, unsigned long)
PGCC_MINMAX(unsigned long, long, unsigned long)
PGCC_MINMAX(unsigned long, unsigned long, long)
PGCC_MINMAX(long long, long long, long long)
PGCC_MINMAX(unsigned long long, unsigned long long, unsigned long long)
PGCC_MINMAX(unsigned long long, long long, unsigned long long)
PGCC_MINMAX(unsigned long long, unsigned long long, long long)
#undef PGCC_MINMAX
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }
#ifdef __clang__
#pragma clang force_cuda_host_device end
#endif
#ifndef __PGCC_HOST_PASS__
/* C's abs/labs/llabs for device code: the C library declares them as host functions, as
   CUDA's headers give device code its own (clang overloads on __device__) */
static inline __device__ int abs(int a) { return a < 0 ? -a : a; }
static inline __device__ long labs(long a) { return a < 0 ? -a : a; }
static inline __device__ long long llabs(long long a) { return a < 0 ? -a : a; }
#endif

#endif
