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
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
#ifdef __clang__
#pragma clang force_cuda_host_device end
#endif

#endif
