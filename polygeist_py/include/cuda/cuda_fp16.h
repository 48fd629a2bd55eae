/* polygeist-py: CUDA's 16-bit floating-point types for CPUs, __half/half2 (IEEE binary16) here and
   __nv_bfloat16/__nv_bfloat162 in cuda_bf16.h. A value is stored as its 16 bits (so arrays filled by host code
   have the layout device code reads, as with CUDA) and computed in float: each operation converts its operands
   to float, operates, and rounds the result to nearest even (for +, -, *, / and sqrt this is the correctly
   rounded 16-bit result, float having more than twice the bits). The conversions are bit manipulations, the
   same in host code (the host compiler) and device code (pgcc). */
#ifndef PGCC_CUDA_FP16_H
#define PGCC_CUDA_FP16_H
#include "cuda_runtime.h"

#ifdef __PGCC_HOST_PASS__
static inline unsigned int __pgcc_float_as_uint(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
static inline float __pgcc_uint_as_float(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
#else
__host__ __device__ unsigned int __pgcc_float_as_uint(float f); /* bit casts (pgcc's builtins) */
__host__ __device__ float __pgcc_uint_as_float(unsigned int u);
#endif

/* binary32 -> binary16 bits, rounded to nearest even (overflow gives infinity, NaN a quiet NaN) */
static inline __host__ __device__ unsigned short __pgcc_f2h_bits(float f) {
  unsigned int x = __pgcc_float_as_uint(f);
  unsigned int sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return (unsigned short)(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (a >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u); /* rounds to 65536 or more */
  if (a < 0x38800000u) { /* below 2^-14: a subnormal half (or zero) */
    unsigned int e = a >> 23, shift = 126u - e;
    if (e == 0 || shift > 24u) return (unsigned short)sign;
    unsigned int m = (a & 0x7fffffu) | 0x800000u, q = m >> shift, rem = m & ((1u << shift) - 1u),
                 half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (unsigned short)(sign | q);
  }
  unsigned int r = a - 0x38000000u; /* exponent bias 127 -> 15 */
  r += 0xfffu + ((r >> 13) & 1u);
  return (unsigned short)(sign | (r >> 13));
}
/* binary16 bits -> binary32 (exact) */
static inline __host__ __device__ float __pgcc_h2f_bits(unsigned short h) {
  unsigned int sign = ((unsigned int)h & 0x8000u) << 16, e = ((unsigned int)h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return __pgcc_uint_as_float(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    float v = (float)m * 5.9604644775390625e-08f; /* m * 2^-24 */
    return sign ? -v : v;
  }
  return __pgcc_uint_as_float(sign | ((e + 112u) << 23) | (m << 13));
}
/* binary32 -> bfloat16 bits, rounded to nearest even; bfloat16 -> binary32 */
static inline __host__ __device__ unsigned short __pgcc_f2bf_bits(float f) {
  unsigned int x = __pgcc_float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((x >> 16) | 0x40u);
  return (unsigned short)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
static inline __host__ __device__ float __pgcc_bf2f_bits(unsigned short h) {
  return __pgcc_uint_as_float((unsigned int)h << 16);
}

struct __half_raw { unsigned short x; };
struct __nv_bfloat16_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
struct __nv_bfloat162_raw { unsigned short x, y; };

/* a 16-bit type T stored as bits __x, converted by F2B/B2F */
#define PGCC_HALF_TYPE(T, RAW, F2B, B2F)                                                                 \
  struct __align__(2) T {                                                                               \
    unsigned short __x;                                                                                  \
    T() = default;                                                                                       \
    __host__ __device__ T(const RAW &r) : __x(r.x) {}                                                    \
    __host__ __device__ T(float f) : __x(F2B(f)) {}                                                      \
    __host__ __device__ T(double f) : __x(F2B((float)f)) {}                                              \
    __host__ __device__ T(int i) : __x(F2B((float)i)) {}                                                 \
    __host__ __device__ T(unsigned int i) : __x(F2B((float)i)) {}                                        \
    __host__ __device__ T(long long i) : __x(F2B((float)i)) {}                                           \
    __host__ __device__ T(unsigned long long i) : __x(F2B((float)i)) {}                                  \
    __host__ __device__ T(short i) : __x(F2B((float)i)) {}                                               \
    __host__ __device__ T(unsigned short i) : __x(F2B((float)i)) {}                                      \
    __host__ __device__ operator float() const { return B2F(__x); }                                      \
    __host__ __device__ operator RAW() const { RAW r; r.x = __x; return r; }                             \
    __host__ __device__ T &operator=(float f) { __x = F2B(f); return *this; }                           \
    __host__ __device__ T &operator=(double f) { __x = F2B((float)f); return *this; }                   \
    __host__ __device__ T &operator=(const RAW &r) { __x = r.x; return *this; }                          \
    /* as CUDA's headers: assigning an integer converts it (`h.x = -1;`), as the constructors do */       \
    __host__ __device__ T &operator=(int i) { __x = F2B((float)i); return *this; }                      \
    __host__ __device__ T &operator=(unsigned int i) { __x = F2B((float)i); return *this; }             \
    __host__ __device__ T &operator=(long long i) { __x = F2B((float)i); return *this; }                \
    __host__ __device__ T &operator=(unsigned long long i) { __x = F2B((float)i); return *this; }       \
    __host__ __device__ T &operator=(short i) { __x = F2B((float)i); return *this; }                    \
    __host__ __device__ T &operator=(unsigned short i) { __x = F2B((float)i); return *this; }           \
  };                                                                                                     \
  static inline __host__ __device__ T operator+(const T &a, const T &b) { return T((float)a + (float)b); } \
  static inline __host__ __device__ T operator-(const T &a, const T &b) { return T((float)a - (float)b); } \
  static inline __host__ __device__ T operator*(const T &a, const T &b) { return T((float)a * (float)b); } \
  static inline __host__ __device__ T operator/(const T &a, const T &b) { return T((float)a / (float)b); } \
  static inline __host__ __device__ T &operator+=(T &a, const T &b) { a = T((float)a + (float)b); return a; } \
  static inline __host__ __device__ T &operator-=(T &a, const T &b) { a = T((float)a - (float)b); return a; } \
  static inline __host__ __device__ T &operator*=(T &a, const T &b) { a = T((float)a * (float)b); return a; } \
  static inline __host__ __device__ T &operator/=(T &a, const T &b) { a = T((float)a / (float)b); return a; } \
  static inline __host__ __device__ T operator-(const T &a) { T r; r.__x = (unsigned short)(a.__x ^ 0x8000u); return r; } \
  static inline __host__ __device__ T operator+(const T &a) { return a; }                                \
  static inline __host__ __device__ T &operator++(T &a) { a = T((float)a + 1.0f); return a; }            \
  static inline __host__ __device__ T &operator--(T &a) { a = T((float)a - 1.0f); return a; }            \
  static inline __host__ __device__ T operator++(T &a, int) { T old = a; ++a; return old; }              \
  static inline __host__ __device__ T operator--(T &a, int) { T old = a; --a; return old; }              \
  static inline __host__ __device__ bool operator==(const T &a, const T &b) { return (float)a == (float)b; } \
  static inline __host__ __device__ bool operator!=(const T &a, const T &b) { return (float)a != (float)b; } \
  static inline __host__ __device__ bool operator<(const T &a, const T &b) { return (float)a < (float)b; } \
  static inline __host__ __device__ bool operator>(const T &a, const T &b) { return (float)a > (float)b; } \
  static inline __host__ __device__ bool operator<=(const T &a, const T &b) { return (float)a <= (float)b; } \
  static inline __host__ __device__ bool operator>=(const T &a, const T &b) { return (float)a >= (float)b; } \
  static inline __host__ __device__ T __hadd(T a, T b) { return T((float)a + (float)b); }               \
  static inline __host__ __device__ T __hsub(T a, T b) { return T((float)a - (float)b); }               \
  static inline __host__ __device__ T __hmul(T a, T b) { return T((float)a * (float)b); }               \
  static inline __host__ __device__ T __hdiv(T a, T b) { return T((float)a / (float)b); }               \
  static inline __host__ __device__ T __hfma(T a, T b, T c) { return T(fmaf((float)a, (float)b, (float)c)); } \
  /* (_rn: never contracted into a fused multiply-add, as pgcc never contracts) */                        \
  static inline __host__ __device__ T __hadd_rn(T a, T b) { return T((float)a + (float)b); }            \
  static inline __host__ __device__ T __hsub_rn(T a, T b) { return T((float)a - (float)b); }            \
  static inline __host__ __device__ T __hmul_rn(T a, T b) { return T((float)a * (float)b); }            \
  static inline __host__ __device__ T __hneg(T a) { return -a; }                                         \
  static inline __host__ __device__ T __habs(T a) { T r; r.__x = (unsigned short)(a.__x & 0x7fffu); return r; } \
  static inline __host__ __device__ T __hmax(T a, T b) { return (float)a < (float)b ? b : a; }         \
  static inline __host__ __device__ T __hmin(T a, T b) { return (float)b < (float)a ? b : a; }         \
  static inline __host__ __device__ bool __heq(T a, T b) { return (float)a == (float)b; }               \
  static inline __host__ __device__ bool __hne(T a, T b) { return (float)a != (float)b; }               \
  static inline __host__ __device__ bool __hlt(T a, T b) { return (float)a < (float)b; }                \
  static inline __host__ __device__ bool __hle(T a, T b) { return (float)a <= (float)b; }               \
  static inline __host__ __device__ bool __hgt(T a, T b) { return (float)a > (float)b; }                \
  static inline __host__ __device__ bool __hge(T a, T b) { return (float)a >= (float)b; }               \
  static inline __host__ __device__ bool __hisnan(T a) { return (float)a != (float)a; }                  \
  static inline __host__ __device__ int __hisinf(T a) {                                                  \
    return (float)a == INFINITY ? 1 : (float)a == -INFINITY ? -1 : 0;                                    \
  }                                                                                                      \
  static inline __host__ __device__ T __hadd_sat(T a, T b) { return T(fminf(fmaxf((float)a + (float)b, 0.0f), 1.0f)); } \
  static inline __host__ __device__ T __hsub_sat(T a, T b) { return T(fminf(fmaxf((float)a - (float)b, 0.0f), 1.0f)); } \
  static inline __host__ __device__ T __hmul_sat(T a, T b) { return T(fminf(fmaxf((float)a * (float)b, 0.0f), 1.0f)); } \
  static inline __host__ __device__ T hexp2(T a) { return T(exp2f((float)a)); }                          \
  static inline __host__ __device__ T hlog2(T a) { return T(log2f((float)a)); }                          \
  static inline __host__ __device__ T hlog10(T a) { return T(log10f((float)a)); }                        \
  static inline __host__ __device__ T htrunc(T a) { return T(truncf((float)a)); }                        \
  static inline __host__ __device__ T hrint(T a) { return T(rintf((float)a)); }                          \
  static inline __host__ __device__ T hsqrt(T a) { return T(sqrtf((float)a)); }                          \
  static inline __host__ __device__ T hrsqrt(T a) { return T(1.0f / sqrtf((float)a)); }                  \
  static inline __host__ __device__ T hexp(T a) { return T(expf((float)a)); }                            \
  static inline __host__ __device__ T hlog(T a) { return T(logf((float)a)); }                            \
  static inline __host__ __device__ T hsin(T a) { return T(sinf((float)a)); }                           \
  static inline __host__ __device__ T hcos(T a) { return T(cosf((float)a)); }                           \
  static inline __host__ __device__ T hfloor(T a) { return T(floorf((float)a)); }                        \
  static inline __host__ __device__ T hceil(T a) { return T(ceilf((float)a)); }                          \
  static inline __host__ __device__ T hrcp(T a) { return T(1.0f / (float)a); }                           \
  static inline __device__ T __shfl_sync(unsigned m, T v, int l, int w = 32) { return T(__shfl_sync(m, (float)v, l, w)); } \
  static inline __device__ T __shfl_up_sync(unsigned m, T v, unsigned d, int w = 32) { return T(__shfl_up_sync(m, (float)v, d, w)); } \
  static inline __device__ T __shfl_down_sync(unsigned m, T v, unsigned d, int w = 32) { return T(__shfl_down_sync(m, (float)v, d, w)); } \
  static inline __device__ T __shfl_xor_sync(unsigned m, T v, int l, int w = 32) { return T(__shfl_xor_sync(m, (float)v, l, w)); }

/* a pair of T (T2: x low, y high), operations lane by lane; comparisons give 1.0 or 0.0 per lane (__hgt2), or
   whether both lanes hold (__hbgt2) */
#define PGCC_HALF2_TYPE(T2, T, RAW2)                                                                     \
  struct __align__(4) T2 {                                                                              \
    T x, y;                                                                                              \
    T2() = default;                                                                                      \
    __host__ __device__ T2(const T &a, const T &b) : x(a), y(b) {}                                       \
    __host__ __device__ T2(const RAW2 &r) { x.__x = r.x; y.__x = r.y; }                                  \
    __host__ __device__ operator RAW2() const { RAW2 r; r.x = x.__x; r.y = y.__x; return r; }             \
    __host__ __device__ T2 &operator=(const RAW2 &r) { x.__x = r.x; y.__x = r.y; return *this; }          \
  };                                                                                                     \
  static inline __host__ __device__ T2 &operator-=(T2 &a, const T2 &b) { a = T2(a.x - b.x, a.y - b.y); return a; } \
  static inline __host__ __device__ T2 &operator/=(T2 &a, const T2 &b) { a = T2(a.x / b.x, a.y / b.y); return a; } \
  static inline __host__ __device__ T2 operator-(const T2 &a) { return T2(-a.x, -a.y); }                 \
  static inline __host__ __device__ T2 operator+(const T2 &a) { return a; }                              \
  static inline __host__ __device__ T2 &operator++(T2 &a) { a = T2(a.x + T(1.0f), a.y + T(1.0f)); return a; } \
  static inline __host__ __device__ T2 &operator--(T2 &a) { a = T2(a.x - T(1.0f), a.y - T(1.0f)); return a; } \
  static inline __host__ __device__ T2 operator++(T2 &a, int) { T2 old = a; ++a; return old; }           \
  static inline __host__ __device__ T2 operator--(T2 &a, int) { T2 old = a; --a; return old; }           \
  static inline __host__ __device__ bool operator==(const T2 &a, const T2 &b) { return a.x == b.x && a.y == b.y; } \
  static inline __host__ __device__ bool operator!=(const T2 &a, const T2 &b) { return a.x != b.x && a.y != b.y; } \
  static inline __host__ __device__ bool operator<(const T2 &a, const T2 &b) { return a.x < b.x && a.y < b.y; } \
  static inline __host__ __device__ bool operator>(const T2 &a, const T2 &b) { return a.x > b.x && a.y > b.y; } \
  static inline __host__ __device__ bool operator<=(const T2 &a, const T2 &b) { return a.x <= b.x && a.y <= b.y; } \
  static inline __host__ __device__ bool operator>=(const T2 &a, const T2 &b) { return a.x >= b.x && a.y >= b.y; } \
  static inline __host__ __device__ T2 operator+(const T2 &a, const T2 &b) { return T2(a.x + b.x, a.y + b.y); } \
  static inline __host__ __device__ T2 operator-(const T2 &a, const T2 &b) { return T2(a.x - b.x, a.y - b.y); } \
  static inline __host__ __device__ T2 operator*(const T2 &a, const T2 &b) { return T2(a.x * b.x, a.y * b.y); } \
  static inline __host__ __device__ T2 operator/(const T2 &a, const T2 &b) { return T2(a.x / b.x, a.y / b.y); } \
  static inline __host__ __device__ T2 &operator+=(T2 &a, const T2 &b) { a = a + b; return a; }          \
  static inline __host__ __device__ T2 &operator*=(T2 &a, const T2 &b) { a = a * b; return a; }          \
  static inline __host__ __device__ T2 __hadd2(T2 a, T2 b) { return a + b; }                             \
  static inline __host__ __device__ T2 __hsub2(T2 a, T2 b) { return a - b; }                             \
  static inline __host__ __device__ T2 __hmul2(T2 a, T2 b) { return a * b; }                             \
  static inline __host__ __device__ T2 __h2div(T2 a, T2 b) { return a / b; }                             \
  static inline __host__ __device__ T2 __hadd2_rn(T2 a, T2 b) { return a + b; }                          \
  static inline __host__ __device__ T2 __hsub2_rn(T2 a, T2 b) { return a - b; }                          \
  static inline __host__ __device__ T2 __hmul2_rn(T2 a, T2 b) { return a * b; }                          \
  static inline __host__ __device__ T2 __hfma2(T2 a, T2 b, T2 c) { return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); } \
  static inline __host__ __device__ T2 __hneg2(T2 a) { return T2(-a.x, -a.y); }                          \
  static inline __host__ __device__ T2 __habs2(T2 a) { return T2(__habs(a.x), __habs(a.y)); }            \
  static inline __host__ __device__ T2 __hmax2(T2 a, T2 b) { return T2(__hmax(a.x, b.x), __hmax(a.y, b.y)); } \
  static inline __host__ __device__ T2 __hmin2(T2 a, T2 b) { return T2(__hmin(a.x, b.x), __hmin(a.y, b.y)); } \
  static inline __host__ __device__ T2 __heq2(T2 a, T2 b) { return T2(T(__heq(a.x, b.x) ? 1.0f : 0.0f), T(__heq(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hbeq2(T2 a, T2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 __hne2(T2 a, T2 b) { return T2(T(__hne(a.x, b.x) ? 1.0f : 0.0f), T(__hne(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hbne2(T2 a, T2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 __hlt2(T2 a, T2 b) { return T2(T(__hlt(a.x, b.x) ? 1.0f : 0.0f), T(__hlt(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hblt2(T2 a, T2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 __hle2(T2 a, T2 b) { return T2(T(__hle(a.x, b.x) ? 1.0f : 0.0f), T(__hle(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hble2(T2 a, T2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 __hgt2(T2 a, T2 b) { return T2(T(__hgt(a.x, b.x) ? 1.0f : 0.0f), T(__hgt(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hbgt2(T2 a, T2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 __hge2(T2 a, T2 b) { return T2(T(__hge(a.x, b.x) ? 1.0f : 0.0f), T(__hge(a.y, b.y) ? 1.0f : 0.0f)); } \
  static inline __host__ __device__ bool __hbge2(T2 a, T2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }                                  \
  static inline __host__ __device__ T2 h2sqrt(T2 a) { return T2(hsqrt(a.x), hsqrt(a.y)); }               \
  static inline __host__ __device__ float __low2float(T2 a) { return (float)a.x; }                       \
  static inline __host__ __device__ float __high2float(T2 a) { return (float)a.y; }                      \
  static inline __host__ __device__ T2 __lowhigh2highlow(T2 a) { return T2(a.y, a.x); }                  \
  static inline __device__ T2 __shfl_sync(unsigned m, T2 v, int l, int w = 32) { return T2(__shfl_sync(m, v.x, l, w), __shfl_sync(m, v.y, l, w)); } \
  static inline __device__ T2 __shfl_down_sync(unsigned m, T2 v, unsigned d, int w = 32) { return T2(__shfl_down_sync(m, v.x, d, w), __shfl_down_sync(m, v.y, d, w)); } \
  static inline __device__ T2 __shfl_xor_sync(unsigned m, T2 v, int l, int w = 32) { return T2(__shfl_xor_sync(m, v.x, l, w), __shfl_xor_sync(m, v.y, l, w)); }

PGCC_HALF_TYPE(__half, __half_raw, __pgcc_f2h_bits, __pgcc_h2f_bits)
PGCC_HALF2_TYPE(__half2, __half, __half2_raw)
typedef __half half;
typedef __half2 half2;
static inline __host__ __device__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static inline __host__ __device__ __half __low2half(__half2 a) { return a.x; }
static inline __host__ __device__ __half __high2half(__half2 a) { return a.y; }
static inline __host__ __device__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static inline __host__ __device__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
static inline __host__ __device__ __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
static inline __host__ __device__ __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
static inline __host__ __device__ float2 __half22float2(__half2 a) { return make_float2((float)a.x, (float)a.y); }

static inline __host__ __device__ __half __float2half(float f) { return __half(f); }
static inline __host__ __device__ __half __float2half_rn(float f) { return __half(f); }
static inline __host__ __device__ __half __double2half(double f) { return __half((float)f); }
static inline __host__ __device__ float __half2float(__half h) { return (float)h; }
static inline __host__ __device__ __half __int2half_rn(int i) { return __half((float)i); }
static inline __host__ __device__ int __half2int_rz(__half h) { return (int)(float)h; }
static inline __host__ __device__ int __half2int_rn(__half h) { return (int)rintf((float)h); }
static inline __host__ __device__ __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
static inline __host__ __device__ __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
static inline __host__ __device__ __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
static inline __host__ __device__ short __half_as_short(__half h) { return (short)h.__x; }
static inline __host__ __device__ unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline __host__ __device__ __half __short_as_half(short s) { __half h; h.__x = (unsigned short)s; return h; }
static inline __host__ __device__ __half __ushort_as_half(unsigned short s) { __half h; h.__x = s; return h; }
static inline __host__ __device__ __half2 __half2half2(__half a) { return __half2(a, a); }
static inline __host__ __device__ __half2 make_half2(__half a, __half b) { return __half2(a, b); }
static inline __host__ __device__ __half __ushort2half_rn(unsigned short i) { return __half((float)i); }
static inline __host__ __device__ __half __short2half_rn(short i) { return __half((float)i); }
static inline __host__ __device__ __half __uint2half_rn(unsigned int i) { return __half((float)i); }
static inline __host__ __device__ __half __ll2half_rn(long long i) { return __half((float)i); }
static inline __host__ __device__ unsigned short __half2ushort_rn(__half h) { return (unsigned short)rintf((float)h); }
static inline __host__ __device__ unsigned short __half2ushort_rz(__half h) { return (unsigned short)(float)h; }
static inline __host__ __device__ short __half2short_rn(__half h) { return (short)rintf((float)h); }
static inline __host__ __device__ short __half2short_rz(__half h) { return (short)(float)h; }
static inline __host__ __device__ unsigned int __half2uint_rn(__half h) { return (unsigned int)rintf((float)h); }
static inline __host__ __device__ unsigned int __half2uint_rz(__half h) { return (unsigned int)(float)h; }
static inline __host__ __device__ long long __half2ll_rn(__half h) { return (long long)rintf((float)h); }
static inline __host__ __device__ long long __half2ll_rz(__half h) { return (long long)(float)h; }
static inline __host__ __device__ double __half2double(__half h) { return (double)(float)h; }
static inline __host__ __device__ unsigned long long __half2ull_rn(__half h) { return (unsigned long long)rintf((float)h); }
static inline __host__ __device__ unsigned long long __half2ull_rz(__half h) { return (unsigned long long)(float)h; }
static inline __host__ __device__ __half __ull2half_rn(unsigned long long i) { return __half((float)i); }

/* atomicAdd on 16-bit floats (sm_70's __half, sm_60's __half2; sm_80's bfloat16 in cuda_bf16.h): a compare-and-swap
   loop on the aligned 32-bit word that holds the value, as CUDA's own fallback for older GPUs does; the sum is
   rounded to the 16-bit type. Returns the old value. */
#define PGCC_HALF_ATOMIC_ADD(T, AS_BITS, FROM_BITS)                                                    \
  static inline __device__ T atomicAdd(T *address, T val) {                                             \
    unsigned int *word = (unsigned int *)((unsigned long long)address & ~3ull);                        \
    unsigned int shift = ((unsigned long long)address & 2ull) ? 16u : 0u;                              \
    unsigned int old = *word, assumed;                                                                 \
    do {                                                                                               \
      assumed = old;                                                                                   \
      T sum = T((float)FROM_BITS((unsigned short)(assumed >> shift)) + (float)val);                    \
      unsigned int next = (assumed & ~(0xffffu << shift)) | ((unsigned int)AS_BITS(sum) << shift);     \
      old = atomicCAS(word, assumed, next);                                                            \
    } while (old != assumed);                                                                          \
    return FROM_BITS((unsigned short)(old >> shift));                                                  \
  }
#define PGCC_HALF2_ATOMIC_ADD(T2, T, AS_BITS, FROM_BITS)                                               \
  static inline __device__ T2 atomicAdd(T2 *address, T2 val) {                                          \
    unsigned int *word = (unsigned int *)address;                                                      \
    unsigned int old = *word, assumed;                                                                 \
    do {                                                                                               \
      assumed = old;                                                                                   \
      T lo = T((float)FROM_BITS((unsigned short)assumed) + (float)val.x);                              \
      T hi = T((float)FROM_BITS((unsigned short)(assumed >> 16)) + (float)val.y);                      \
      old = atomicCAS(word, assumed, (unsigned int)AS_BITS(lo) | (unsigned int)AS_BITS(hi) << 16);     \
    } while (old != assumed);                                                                          \
    return T2(FROM_BITS((unsigned short)old), FROM_BITS((unsigned short)(old >> 16)));                 \
  }
PGCC_HALF_ATOMIC_ADD(__half, __half_as_ushort, __ushort_as_half)
PGCC_HALF2_ATOMIC_ADD(__half2, __half, __half_as_ushort, __ushort_as_half)

#endif
