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
float rsqrtf(float); double rsqrt(double);
float __expf(float); float __logf(float); float __sinf(float); float __cosf(float);
float __powf(float, float); float __fdividef(float, float);
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
