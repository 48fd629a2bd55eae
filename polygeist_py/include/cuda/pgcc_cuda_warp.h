/* polygeist-py: CUDA warp-level intrinsics (device code); pgcc gives them their meaning for the 32 consecutive
   threads of a warp, so declarations are all that is needed. */
#ifndef PGCC_CUDA_WARP_H
#define PGCC_CUDA_WARP_H

#define PGCC_SHUFFLES(T)                                                                           \
  __device__ T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32);                      \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = 32);            \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = 32);          \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32);
PGCC_SHUFFLES(int) PGCC_SHUFFLES(unsigned int) PGCC_SHUFFLES(long long) PGCC_SHUFFLES(unsigned long long)
PGCC_SHUFFLES(float) PGCC_SHUFFLES(double)
#undef PGCC_SHUFFLES

__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ unsigned int __activemask(void);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
#endif
