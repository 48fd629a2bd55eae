/* polygeist-py: CUDA's bfloat16 types __nv_bfloat16/__nv_bfloat162, stored as 16 bits and computed in float
   (see cuda_fp16.h, which defines both families). */
#ifndef PGCC_CUDA_BF16_H
#define PGCC_CUDA_BF16_H
#include "cuda_fp16.h"

PGCC_HALF_TYPE(__nv_bfloat16, __nv_bfloat16_raw, __pgcc_f2bf_bits, __pgcc_bf2f_bits)
PGCC_HALF2_TYPE(__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
static inline __host__ __device__ __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
static inline __host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
static inline __host__ __device__ __nv_bfloat16 __double2bfloat16(double f) { return __nv_bfloat16((float)f); }
static inline __host__ __device__ float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
static inline __host__ __device__ __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16((float)i); }
static inline __host__ __device__ int __bfloat162int_rz(__nv_bfloat16 h) { return (int)(float)h; }
static inline __host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
static inline __host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__nv_bfloat16(f), __nv_bfloat16(f));
}
static inline __host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __nv_bfloat162(__nv_bfloat16(f.x), __nv_bfloat16(f.y));
}
static inline __host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 a) {
  return make_float2((float)a.x, (float)a.y);
}
static inline __host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
static inline __host__ __device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
static inline __host__ __device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
static inline __host__ __device__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
static inline __host__ __device__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
static inline __host__ __device__ short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
static inline __host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static inline __host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  __nv_bfloat16 h; h.__x = s; return h;
}

PGCC_HALF_ATOMIC_ADD(__nv_bfloat16, __bfloat16_as_ushort, __ushort_as_bfloat16)
PGCC_HALF2_ATOMIC_ADD(__nv_bfloat162, __nv_bfloat16, __bfloat16_as_ushort, __ushort_as_bfloat16)
#endif
