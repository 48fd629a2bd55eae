/* polygeist-py: the CUDA toolkit's cuComplex.h (complex numbers as float2/double2, host and device code), written
   from its documented interface: cuFloatComplex/cuDoubleComplex, make_*, real and imaginary parts, conjugate,
   + - * /, absolute value (scaled to avoid overflow, as the toolkit's) and fused multiply-add. */
#ifndef PGCC_CUCOMPLEX_H
#define PGCC_CUCOMPLEX_H
#include <math.h>
#include "cuda_runtime.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

static inline __host__ __device__ float cuCrealf(cuFloatComplex x) { return x.x; }
static inline __host__ __device__ float cuCimagf(cuFloatComplex x) { return x.y; }
static inline __host__ __device__ cuFloatComplex make_cuFloatComplex(float r, float i) { return make_float2(r, i); }
static inline __host__ __device__ cuComplex make_cuComplex(float r, float i) { return make_float2(r, i); }
static inline __host__ __device__ cuFloatComplex cuConjf(cuFloatComplex x) { return make_float2(x.x, -x.y); }
static inline __host__ __device__ cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_float2(x.x + y.x, x.y + y.y);
}
static inline __host__ __device__ cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_float2(x.x - y.x, x.y - y.y);
}
static inline __host__ __device__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_float2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline __host__ __device__ cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  float s = fabsf(y.x) + fabsf(y.y), oos = 1.0f / s;
  float ars = x.x * oos, ais = x.y * oos, brs = y.x * oos, bis = y.y * oos;
  float oos2 = 1.0f / (brs * brs + bis * bis);
  return make_float2((ars * brs + ais * bis) * oos2, (ais * brs - ars * bis) * oos2);
}
static inline __host__ __device__ float cuCabsf(cuFloatComplex x) {
  float a = fabsf(x.x), b = fabsf(x.y), v = fmaxf(a, b), w = fminf(a, b);
  if (v == 0.0f || v > 3.402823466e38f || w > 3.402823466e38f)
    return v + w;
  float q = w / v;
  return v * sqrtf(1.0f + q * q);
}
static inline __host__ __device__ cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  float re = (x.x * y.x) + d.x, im = (x.x * y.y) + d.y;
  return make_float2(-(x.y * y.y) + re, (x.y * y.x) + im);
}

static inline __host__ __device__ double cuCreal(cuDoubleComplex x) { return x.x; }
static inline __host__ __device__ double cuCimag(cuDoubleComplex x) { return x.y; }
static inline __host__ __device__ cuDoubleComplex make_cuDoubleComplex(double r, double i) { return make_double2(r, i); }
static inline __host__ __device__ cuDoubleComplex cuConj(cuDoubleComplex x) { return make_double2(x.x, -x.y); }
static inline __host__ __device__ cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_double2(x.x + y.x, x.y + y.y);
}
static inline __host__ __device__ cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_double2(x.x - y.x, x.y - y.y);
}
static inline __host__ __device__ cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_double2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline __host__ __device__ cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  double s = fabs(y.x) + fabs(y.y), oos = 1.0 / s;
  double ars = x.x * oos, ais = x.y * oos, brs = y.x * oos, bis = y.y * oos;
  double oos2 = 1.0 / (brs * brs + bis * bis);
  return make_double2((ars * brs + ais * bis) * oos2, (ais * brs - ars * bis) * oos2);
}
static inline __host__ __device__ double cuCabs(cuDoubleComplex x) {
  double a = fabs(x.x), b = fabs(x.y), v = fmax(a, b), w = fmin(a, b);
  if (v == 0.0 || v > 1.79769313486231570e308 || w > 1.79769313486231570e308)
    return v + w;
  double q = w / v;
  return v * sqrt(1.0 + q * q);
}
static inline __host__ __device__ cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  double re = (x.x * y.x) + d.x, im = (x.x * y.y) + d.y;
  return make_double2(-(x.y * y.y) + re, (x.y * y.x) + im);
}
static inline __host__ __device__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_double2((double)c.x, (double)c.y);
}
static inline __host__ __device__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_float2((float)c.x, (float)c.y);
}
#endif
