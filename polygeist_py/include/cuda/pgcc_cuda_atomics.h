/* polygeist-py: CUDA atomic functions and integer intrinsics (device code). pgcc gives each its meaning (a CPU atomic on the element
   the pointer designates), so declarations are all that is needed. */
#ifndef PGCC_CUDA_ATOMICS_H
#define PGCC_CUDA_ATOMICS_H
#include <time.h>

#define PGCC_ATOMIC2(f, T) __device__ T f(T *address, T val);
#define PGCC_ATOMIC_INT(f)                                                                          \
  PGCC_ATOMIC2(f, int) PGCC_ATOMIC2(f, unsigned int) PGCC_ATOMIC2(f, unsigned long long int)
PGCC_ATOMIC_INT(atomicAdd) PGCC_ATOMIC2(atomicAdd, float) PGCC_ATOMIC2(atomicAdd, double)
PGCC_ATOMIC_INT(atomicExch) PGCC_ATOMIC2(atomicExch, float)
PGCC_ATOMIC2(atomicSub, int) PGCC_ATOMIC2(atomicSub, unsigned int)
PGCC_ATOMIC_INT(atomicMax) PGCC_ATOMIC_INT(atomicMin)
PGCC_ATOMIC_INT(atomicAnd) PGCC_ATOMIC_INT(atomicOr) PGCC_ATOMIC_INT(atomicXor)
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long int atomicCAS(unsigned long long int *address, unsigned long long int compare,
                                            unsigned long long int val);
/* the scoped forms (_block: the block's threads, _system: also the host) are the same CPU atomics */
#define PGCC_SCOPED(f, T) PGCC_ATOMIC2(f##_block, T) PGCC_ATOMIC2(f##_system, T)
#define PGCC_SCOPED_INT(f) PGCC_SCOPED(f, int) PGCC_SCOPED(f, unsigned int) PGCC_SCOPED(f, unsigned long long int)
PGCC_SCOPED_INT(atomicAdd) PGCC_SCOPED(atomicAdd, float) PGCC_SCOPED(atomicAdd, double)
PGCC_SCOPED_INT(atomicExch) PGCC_SCOPED(atomicExch, float) PGCC_SCOPED(atomicSub, int) PGCC_SCOPED(atomicSub, unsigned int)
PGCC_SCOPED_INT(atomicMax) PGCC_SCOPED_INT(atomicMin) PGCC_SCOPED_INT(atomicAnd) PGCC_SCOPED_INT(atomicOr)
PGCC_SCOPED_INT(atomicXor)
#undef PGCC_SCOPED_INT
#undef PGCC_SCOPED
#define PGCC_SCOPED_CAS(T) __device__ T atomicCAS_block(T *address, T compare, T val); \
  __device__ T atomicCAS_system(T *address, T compare, T val);
PGCC_SCOPED_CAS(int) PGCC_SCOPED_CAS(unsigned int) PGCC_SCOPED_CAS(unsigned long long int)
#undef PGCC_SCOPED_CAS
__device__ unsigned int atomicInc_block(unsigned int *address, unsigned int val);
__device__ unsigned int atomicInc_system(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_block(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_system(unsigned int *address, unsigned int val);
/* a sleep of the calling thread is no wait on the CPU (threads of a block run in turn) */
static inline __device__ void __nanosleep(unsigned int ns) { (void)ns; }
/* integer intrinsics */
__device__ int __popc(unsigned int x); __device__ int __popcll(unsigned long long int x);
__device__ int __clz(int x); __device__ int __clzll(long long int x);
__device__ int __ffs(int x); __device__ int __ffsll(long long int x);
__device__ int __mul24(int x, int y); __device__ unsigned int __umul24(unsigned int x, unsigned int y);
/* reinterpretations of a value's bits (bit casts) */
__device__ float __int_as_float(int x); __device__ int __float_as_int(float x);
__device__ float __uint_as_float(unsigned int x); __device__ unsigned int __float_as_uint(float x);
__device__ double __longlong_as_double(long long int x); __device__ long long int __double_as_longlong(double x);
__device__ double __hiloint2double(int hi, int lo);
__device__ int __double2hiint(double x); __device__ int __double2loint(double x);
/* memory fences: a full fence on the CPU (all blocks' threads share one memory) */
__device__ void __threadfence(void); __device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
/* read-only cache loads are plain loads on the CPU */
template <class T> __device__ T __ldg(const T *p);
#include "pgcc_cuda_cache_hints.h"
/* the device clock: the host's processor clock (pgcc's runtime library) */
extern "C" __device__ long long __pgcc_device_clock(void);
static inline __device__ long long clock64(void) { return __pgcc_device_clock(); }
#ifndef __PGCC_HOST_PASS__
static inline __device__ clock_t clock(void) { return (clock_t)__pgcc_device_clock(); }
#endif
#undef PGCC_ATOMIC2
#undef PGCC_ATOMIC_INT
#endif
