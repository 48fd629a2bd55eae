/* polygeist-py: cooperative_groups::reduce over a thread_block_tile with the standard operators: a butterfly of
   shfl_xor steps, after which every thread of the tile holds the result (as CUDA's reduce returns it to all). */
#ifndef PGCC_COOPERATIVE_GROUPS_REDUCE_H
#define PGCC_COOPERATIVE_GROUPS_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

template <unsigned int Size, class Parent, class T, class Op>
__device__ T reduce(const thread_block_tile<Size, Parent> &g, T v, Op op) {
  for (unsigned int m = Size / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, m));
  return v;
}
}  // namespace cooperative_groups
#endif
