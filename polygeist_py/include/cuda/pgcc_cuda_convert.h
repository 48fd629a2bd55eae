/* CUDA's type conversion intrinsics with directed rounding (CUDA Math API, "Type Casting Intrinsics") that
   pgcc_cuda_math.h does not give: _rd rounds toward minus infinity, _ru toward plus infinity, _rz toward zero,
   _rn to nearest even. Floating-point to integer: the rounding function, then the conversion. Integer (or double)
   to a narrower floating type: the conversion rounds to nearest; the result is stepped by one ulp when it landed
   on the wrong side of the exact value, compared exactly (a float or double at or above 2^63 or 2^64 is above
   every 64-bit value; below that it converts back to the integer type exactly). Included by pgcc_cuda_math.h
   inside its host-device region. */
#ifndef PGCC_CUDA_CONVERT_H
#define PGCC_CUDA_CONVERT_H
/* floating point to integer */
static inline unsigned int __double2uint_rd(double x) { return (unsigned int)floor(x); }
static inline unsigned int __double2uint_ru(double x) { return (unsigned int)ceil(x); }
static inline long long __double2ll_rd(double x) { return (long long)floor(x); }
static inline long long __double2ll_ru(double x) { return (long long)ceil(x); }
static inline unsigned long long __double2ull_rn(double x) { return (unsigned long long)rint(x); }
static inline unsigned long long __double2ull_rz(double x) { return (unsigned long long)x; }
static inline unsigned long long __double2ull_rd(double x) { return (unsigned long long)floor(x); }
static inline unsigned long long __double2ull_ru(double x) { return (unsigned long long)ceil(x); }
static inline long long __float2ll_rd(float x) { return (long long)floorf(x); }
static inline long long __float2ll_ru(float x) { return (long long)ceilf(x); }
static inline unsigned long long __float2ull_rn(float x) { return (unsigned long long)rintf(x); }
static inline unsigned long long __float2ull_rz(float x) { return (unsigned long long)x; }
static inline unsigned long long __float2ull_rd(float x) { return (unsigned long long)floorf(x); }
static inline unsigned long long __float2ull_ru(float x) { return (unsigned long long)ceilf(x); }
/* the sign of (rounded - exact): -1, 0 or 1 */
static inline int __pgcc_cmp_f_ll(float f, long long x) {
  return f >= 0x1p63f ? 1 : ((long long)f > x) - ((long long)f < x);
}
static inline int __pgcc_cmp_f_ull(float f, unsigned long long x) {
  return f >= 0x1p64f ? 1 : ((unsigned long long)f > x) - ((unsigned long long)f < x);
}
static inline int __pgcc_cmp_d_ll(double d, long long x) {
  return d >= 0x1p63 ? 1 : ((long long)d > x) - ((long long)d < x);
}
static inline int __pgcc_cmp_d_ull(double d, unsigned long long x) {
  return d >= 0x1p64 ? 1 : ((unsigned long long)d > x) - ((unsigned long long)d < x);
}
static inline int __pgcc_cmp_f_d(float f, double x) { return ((double)f > x) - ((double)f < x); }
/* one ulp down (dir < 0) or up (dir > 0) when the rounded value lies on the other side of the exact one */
static inline float __pgcc_fix_f(float f, int cmp, int dir) {
  return dir < 0 ? (cmp > 0 ? nextafterf(f, -INFINITY) : f) : (cmp < 0 ? nextafterf(f, INFINITY) : f);
}
static inline double __pgcc_fix_d(double d, int cmp, int dir) {
  return dir < 0 ? (cmp > 0 ? nextafter(d, -INFINITY) : d) : (cmp < 0 ? nextafter(d, INFINITY) : d);
}
/* R NAME##_rd/_ru/_rz(T x) from the nearest rounding, the exact comparison CMP and the fix FIX; _rz rounds
   toward zero: down for a positive value, up for a negative one (NEG(x): whether x is negative; 0 for an
   unsigned type) */
#define PGCC_DIRECTED(NAME, R, T, CMP, FIX, NEG)                                                      \
  static inline R NAME##_rd(T x) { R r = (R)x; return FIX(r, CMP(r, x), -1); }                       \
  static inline R NAME##_ru(T x) { R r = (R)x; return FIX(r, CMP(r, x), 1); }                        \
  static inline R NAME##_rz(T x) { R r = (R)x; return FIX(r, CMP(r, x), NEG(x) ? 1 : -1); }
#define PGCC_SIGNED_NEG(x) ((x) < 0)
#define PGCC_UNSIGNED_NEG(x) 0
PGCC_DIRECTED(__int2float, float, int, __pgcc_cmp_f_ll, __pgcc_fix_f, PGCC_SIGNED_NEG)
PGCC_DIRECTED(__uint2float, float, unsigned int, __pgcc_cmp_f_ll, __pgcc_fix_f, PGCC_UNSIGNED_NEG)
PGCC_DIRECTED(__ll2float, float, long long, __pgcc_cmp_f_ll, __pgcc_fix_f, PGCC_SIGNED_NEG)
PGCC_DIRECTED(__ull2float, float, unsigned long long, __pgcc_cmp_f_ull, __pgcc_fix_f, PGCC_UNSIGNED_NEG)
PGCC_DIRECTED(__ll2double, double, long long, __pgcc_cmp_d_ll, __pgcc_fix_d, PGCC_SIGNED_NEG)
PGCC_DIRECTED(__ull2double, double, unsigned long long, __pgcc_cmp_d_ull, __pgcc_fix_d, PGCC_UNSIGNED_NEG)
PGCC_DIRECTED(__double2float, float, double, __pgcc_cmp_f_d, __pgcc_fix_f, PGCC_SIGNED_NEG)
#undef PGCC_SIGNED_NEG
#undef PGCC_UNSIGNED_NEG
#undef PGCC_DIRECTED
static inline float __ull2float_rn(unsigned long long x) { return (float)x; }
static inline double __ull2double_rn(unsigned long long x) { return (double)x; }
#endif
