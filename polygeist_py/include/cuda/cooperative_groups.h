/* polygeist-py: CUDA's cooperative groups within a block. A thread_block is the block of the calling thread
   (its sync() is __syncthreads()); tiled_partition<N> gives warp tiles whose shuffles are pgcc's warp
   shuffles; tiled_partition(block, n) with a run-time n gives a thread_group (rank, size, sync); grid-wide
   synchronization (this_grid().sync()) is a barrier of all the blocks of a launch. cg::reduce is in
   cooperative_groups/reduce.h. */
#ifndef PGCC_COOPERATIVE_GROUPS_H
#define PGCC_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"
#include <assert.h>
#include <stdio.h>
#ifdef __cplusplus
/* programs built by nvcc use std::chrono having included only <cuda_runtime.h> and <cooperative_groups.h>
   (the timing helpers of HeCBench softmax-online's common.h): nvcc's headers bring it in */
#include <chrono>
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

/* The grid of a launch. sync() is a grid-wide barrier: the block's threads meet (__syncthreads), one thread per
   block waits at a barrier of all the launch's blocks (__pgcc_grid_barrier, pgcc's runtime; --cpuify runs every
   block of a kernel that uses it on a thread of its own, gpu_to_cpu/launch_to_loops.py), the threads meet
   again. */
extern "C" __device__ void __pgcc_grid_barrier(void);
struct grid_group {
  __device__ void sync() const {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
      __pgcc_grid_barrier();
    __syncthreads();
  }
  __device__ bool is_valid() const { return true; }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
  __device__ unsigned long long block_rank() const { return (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x; }
  __device__ dim3 group_dim() const { return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z); }
  __device__ dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
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
static inline __device__ void sync(const grid_group &g) { g.sync(); }

/* Tile shuffles take any trivially copyable type, as CUDA's do (a struct of a max and a sum reduced with
   cg::reduce): the scalar types of the warp intrinsics go straight to them; any other type is exchanged as the
   32-bit words of its bytes. */
#define PGCC_CG_SHUFFLE(NAME, INTRINSIC, ARG)                                                        \
  template <class T> static inline __device__ T NAME(T v, ARG a, int width) {                        \
    unsigned int w[(sizeof(T) + 3) / 4];                                                             \
    __builtin_memcpy(w, &v, sizeof(T));                                                                  \
    for (unsigned int i = 0; i < (sizeof(T) + 3) / 4; i++) w[i] = INTRINSIC(0xffffffffu, w[i], a, width); \
    __builtin_memcpy(&v, w, sizeof(T));                                                                  \
    return v;                                                                                        \
  }
PGCC_CG_SHUFFLE(__pgcc_cg_shfl, __shfl_sync, int) PGCC_CG_SHUFFLE(__pgcc_cg_shfl_up, __shfl_up_sync, unsigned int)
PGCC_CG_SHUFFLE(__pgcc_cg_shfl_down, __shfl_down_sync, unsigned int)
PGCC_CG_SHUFFLE(__pgcc_cg_shfl_xor, __shfl_xor_sync, int)
#undef PGCC_CG_SHUFFLE
#define PGCC_CG_SCALAR_SHUFFLES(T)                                                                   \
  static inline __device__ T __pgcc_cg_shfl(T v, int a, int w) { return __shfl_sync(0xffffffffu, v, a, w); } \
  static inline __device__ T __pgcc_cg_shfl_up(T v, unsigned int a, int w) { return __shfl_up_sync(0xffffffffu, v, a, w); } \
  static inline __device__ T __pgcc_cg_shfl_down(T v, unsigned int a, int w) { return __shfl_down_sync(0xffffffffu, v, a, w); } \
  static inline __device__ T __pgcc_cg_shfl_xor(T v, int a, int w) { return __shfl_xor_sync(0xffffffffu, v, a, w); }
PGCC_CG_SCALAR_SHUFFLES(int) PGCC_CG_SCALAR_SHUFFLES(unsigned int) PGCC_CG_SCALAR_SHUFFLES(long long)
PGCC_CG_SCALAR_SHUFFLES(unsigned long long) PGCC_CG_SCALAR_SHUFFLES(float) PGCC_CG_SCALAR_SHUFFLES(double)
#undef PGCC_CG_SCALAR_SHUFFLES

/* A tile of Size consecutive threads (by linear thread index, as CUDA forms warps) of a block: Size is a power
   of two up to 32, so a tile lies within one warp and its exchanges are pgcc's warp shuffles with width Size. */
template <unsigned int Size, class Parent = void> struct thread_block_tile {
  static_assert(Size > 0 && Size <= 32 && (Size & (Size - 1)) == 0,
                "pgcc: thread_block_tile<Size> needs a power of two Size up to 32");
  __device__ unsigned int block_rank_() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned int thread_rank() const { return block_rank_() % Size; }
  __device__ unsigned int size() const { return Size; }
  __device__ unsigned int num_threads() const { return Size; }
  __device__ unsigned int meta_group_rank() const { return block_rank_() / Size; }
  __device__ unsigned int meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size;
  }
  __device__ void sync() const { __syncwarp(); }
  template <class T> __device__ T shfl(T v, int src) const { return __pgcc_cg_shfl(v, src, Size); }
  template <class T> __device__ T shfl_down(T v, unsigned int d) const { return __pgcc_cg_shfl_down(v, d, Size); }
  template <class T> __device__ T shfl_up(T v, unsigned int d) const { return __pgcc_cg_shfl_up(v, d, Size); }
  template <class T> __device__ T shfl_xor(T v, unsigned int m) const { return __pgcc_cg_shfl_xor(v, m, Size); }
  __device__ int any(int p) const {
    return (__ballot_sync(0xffffffffu, p) >> (block_rank_() % 32 / Size * Size) & tile_mask_()) != 0;
  }
  __device__ int all(int p) const {
    return (__ballot_sync(0xffffffffu, p) >> (block_rank_() % 32 / Size * Size) & tile_mask_()) == tile_mask_();
  }
  __device__ unsigned int ballot(int p) const {
    return __ballot_sync(0xffffffffu, p) >> (block_rank_() % 32 / Size * Size) & tile_mask_();
  }
  __device__ unsigned int tile_mask_() const { return Size == 32 ? 0xffffffffu : (1u << Size) - 1u; }
};
template <unsigned int Size, class Parent>
__device__ thread_block_tile<Size> tiled_partition(const Parent &) { return thread_block_tile<Size>(); }
template <unsigned int Size, class Parent> __device__ void sync(const thread_block_tile<Size, Parent> &g) { g.sync(); }
/* The run-time form tiled_partition(block, n) gives a thread_group of n consecutive threads; n must be a power
   of two up to 32 (the group lies in a warp, its sync() is a warp barrier): another n stops the program with
   a message, as CUDA reports an invalid tile size. */
struct thread_group {
  unsigned int size_;
  __device__ unsigned int block_rank_() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned int thread_rank() const { return block_rank_() % size_; }
  __device__ unsigned int size() const { return size_; }
  __device__ unsigned int num_threads() const { return size_; }
  __device__ unsigned int meta_group_rank() const { return block_rank_() / size_; }
  __device__ unsigned int meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + size_ - 1) / size_;
  }
  __device__ void sync() const { __syncwarp(); }
};
static inline __device__ thread_group tiled_partition(const thread_block &parent, unsigned int tilesz) {
  if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0) {
    printf("pgcc: tiled_partition(block, %u): the tile size must be a power of two up to 32\n", tilesz);
    assert(0 && "pgcc: tiled_partition(block, n) needs n a power of two up to 32");
  }
  thread_group g;
  g.size_ = tilesz;
  return g;
}
static inline __device__ void sync(const thread_group &g) { g.sync(); }

/* The threads of a warp that reach coalesced_threads() together (__activemask(), which pgcc computes also
   under a condition that differs between the lanes of a warp); ranks are by lane among them. */
struct coalesced_group {
  unsigned int mask_;
  __device__ unsigned int lane_() const {
    return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32;
  }
  __device__ unsigned int lane_of_(unsigned int rank) const {  // the lane of the rank-th member
    unsigned int lane = 0;
    for (unsigned int l = 0, seen = 0; l < 32; l++)
      if (mask_ >> l & 1u) {
        if (seen == rank) lane = l;
        seen++;
      }
    return lane;
  }
  __device__ unsigned int size() const { return __popc(mask_); }
  __device__ unsigned int num_threads() const { return size(); }
  __device__ unsigned int thread_rank() const { return __popc(mask_ & ((1u << lane_()) - 1u)); }
  __device__ unsigned int meta_group_rank() const { return 0; }
  __device__ unsigned int meta_group_size() const { return 1; }
  __device__ void sync() const { __syncwarp(mask_); }
  template <class T> __device__ T shfl(T v, unsigned int rank) const { return __shfl_sync(mask_, v, lane_of_(rank)); }
  __device__ unsigned int ballot(int p) const {  // bit i: the member of rank i
    unsigned int all = __ballot_sync(mask_, p), out = 0;
    for (unsigned int l = 0, r = 0; l < 32; l++)
      if (mask_ >> l & 1u) {
        out |= (all >> l & 1u) << r;
        r++;
      }
    return out;
  }
  __device__ int any(int p) const { return (__ballot_sync(mask_, p) & mask_) != 0; }
  __device__ int all(int p) const { return (__ballot_sync(mask_, p) & mask_) == mask_; }
};
static inline __device__ coalesced_group coalesced_threads() {
  coalesced_group g;
  g.mask_ = __activemask();
  return g;
}
static inline __device__ void sync(const coalesced_group &g) { g.sync(); }
}  // namespace cooperative_groups
#endif
