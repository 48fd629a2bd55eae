/* polygeist-py: the thread-block part of CUDA's cooperative groups. A thread_block is the block of the calling
   thread (its sync() is __syncthreads()); grid-wide groups and tiled partitions are declared so that programs
   parse, and using them is an error naming them. */
#ifndef PGCC_COOPERATIVE_GROUPS_H
#define PGCC_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"

#ifdef __PGCC_HOST_PASS__
#define PGCC_CG_UNSUPPORTED(what)
#else
#define PGCC_CG_UNSUPPORTED(what) __attribute__((unavailable("unsupported construct: " what " (cooperative groups)")))
#endif

namespace cooperative_groups {
struct thread_block {
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned int num_threads() const { return size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
static inline __device__ thread_block this_thread_block() { return thread_block(); }
static inline __device__ void sync(const thread_block &g) { g.sync(); }

struct grid_group {
  PGCC_CG_UNSUPPORTED("grid_group::sync (grid-wide synchronization)") __device__ void sync() const;
  __device__ unsigned long long thread_rank() const {
    unsigned long long block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    return block * (blockDim.x * blockDim.y * blockDim.z) +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  }
};
static inline __device__ grid_group this_grid() { return grid_group(); }

template <unsigned int Size> struct thread_block_tile {};
template <unsigned int Size, class Parent>
PGCC_CG_UNSUPPORTED("tiled_partition (thread block tiles)")
__device__ thread_block_tile<Size> tiled_partition(const Parent &parent);
}  // namespace cooperative_groups
#undef PGCC_CG_UNSUPPORTED
#endif
