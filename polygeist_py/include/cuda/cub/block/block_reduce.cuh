/* polygeist-py: CUB's block-wide reduction, cub::BlockReduce, the one part of CUB that pgcc provides (other
   CUB names are the error "CUDA library not supported: cub::NAME", clang_ast._toolkit_library). Each thread
   stores its partial in the TempStorage the program declares __shared__, the block meets at __syncthreads(),
   thread 0 combines the partials in thread-rank order and the block meets again before the storage can be
   reused. As with CUB, only thread 0's result is the block's; the others get their own input back (CUB leaves
   theirs unspecified). The algorithm parameter is accepted and ignored. */
#ifndef PGCC_CUB_BLOCK_REDUCE_CUH
#define PGCC_CUB_BLOCK_REDUCE_CUH
#include "cuda_runtime.h"

namespace cub {

/* CUB's binary reduction functors. */
struct Sum {
  template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
  template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
 public:
  enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

  /* Raw storage, as CUB's Uninitialized<>: it may sit in a __shared__ union with other storage. */
  struct TempStorage {
    alignas(T) unsigned char bytes[sizeof(T) * BLOCK_THREADS];
  };

  __device__ BlockReduce(TempStorage &storage) : slots_(reinterpret_cast<T *>(storage.bytes)) {}

  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp op) {
    return Reduce(input, op, BLOCK_THREADS);
  }

  /* Only the first num_valid threads' inputs count. */
  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp op, int num_valid) {
    const int rank = (int)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x);
    const int threads = (int)(blockDim.x * blockDim.y * blockDim.z);
    const int n = num_valid < threads ? num_valid : threads;
    if (rank < BLOCK_THREADS)
      slots_[rank] = input;
    __syncthreads();
    T result = input;
    if (rank == 0) {
      for (int i = 1; i < n && i < BLOCK_THREADS; i++)
        result = op(result, slots_[i]);
    }
    __syncthreads();
    return result;
  }

  /* Each thread's ITEMS consecutive inputs, reduced in the thread first. */
  template <int ITEMS, typename ReductionOp> __device__ T Reduce(T (&inputs)[ITEMS], ReductionOp op) {
    T partial = inputs[0];
    for (int i = 1; i < ITEMS; i++)
      partial = op(partial, inputs[i]);
    return Reduce(partial, op, BLOCK_THREADS);
  }

  __device__ T Sum(T input) { return Reduce(input, cub::Sum(), BLOCK_THREADS); }
  __device__ T Sum(T input, int num_valid) { return Reduce(input, cub::Sum(), num_valid); }
  template <int ITEMS> __device__ T Sum(T (&inputs)[ITEMS]) { return Reduce(inputs, cub::Sum()); }

 private:
  T *slots_;
};

}  // namespace cub

#endif
