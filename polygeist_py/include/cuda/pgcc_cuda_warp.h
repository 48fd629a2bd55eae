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
/* warp reductions (sm_80's __reduce_*_sync): a butterfly of shuffles over the whole warp */
#define PGCC_WARP_REDUCE(name, T, OP)                                                               \
  static inline __device__ T name(unsigned int mask, T v) {                                          \
    for (int o = 16; o > 0; o >>= 1) {                                                               \
      T w = __shfl_xor_sync(mask, v, o);                                                             \
      v = OP;                                                                                        \
    }                                                                                                \
    return v;                                                                                        \
  }
PGCC_WARP_REDUCE(__reduce_add_sync, unsigned int, v + w) PGCC_WARP_REDUCE(__reduce_add_sync, int, v + w)
PGCC_WARP_REDUCE(__reduce_min_sync, unsigned int, w < v ? w : v) PGCC_WARP_REDUCE(__reduce_min_sync, int, w < v ? w : v)
PGCC_WARP_REDUCE(__reduce_max_sync, unsigned int, w > v ? w : v) PGCC_WARP_REDUCE(__reduce_max_sync, int, w > v ? w : v)
PGCC_WARP_REDUCE(__reduce_and_sync, unsigned int, v & w) PGCC_WARP_REDUCE(__reduce_or_sync, unsigned int, v | w)
PGCC_WARP_REDUCE(__reduce_xor_sync, unsigned int, v ^ w)
#undef PGCC_WARP_REDUCE
/* warp match (sm_70): the lanes of the warp whose value equals this lane's (__match_any_sync), or all of them
   if every lane holds the same value, with *pred telling which (__match_all_sync); each lane's value is read
   with a shuffle, as the whole warp takes part */
#define PGCC_WARP_MATCH(T)                                                                          \
  static inline __device__ unsigned int __match_any_sync(unsigned int mask, T v) {                   \
    unsigned int m = 0;                                                                              \
    for (int l = 0; l < 32; l++)                                                                     \
      if (__shfl_sync(mask, v, l) == v) m |= 1u << l;                                                \
    return m & mask;                                                                                 \
  }                                                                                                  \
  static inline __device__ unsigned int __match_all_sync(unsigned int mask, T v, int *pred) {        \
    unsigned int m = __match_any_sync(mask, v);                                                      \
    *pred = m == mask;                                                                               \
    return m == mask ? mask : 0u;                                                                    \
  }
PGCC_WARP_MATCH(int) PGCC_WARP_MATCH(unsigned int) PGCC_WARP_MATCH(long long) PGCC_WARP_MATCH(unsigned long long)
PGCC_WARP_MATCH(float) PGCC_WARP_MATCH(double)
#undef PGCC_WARP_MATCH
#endif
