/* Stream-ordered memory pools (cudaMemPool_t, CUDA 11.2): device memory is host memory and every stream runs in
   program order, so a pool allocates with cudaMalloc and frees with cudaFree at once. A pool keeps the attributes a
   program sets (release threshold, reuse policies) and reports them back; the memory counters, which need the
   pool's bookkeeping, are reported as not supported. Included by cuda_runtime.h. */
#ifndef PGCC_CUDA_MEMPOOL_H
#define PGCC_CUDA_MEMPOOL_H
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6, cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8
};
struct __pgcc_mem_pool { unsigned long long release_threshold; int reuse[3]; };
typedef struct __pgcc_mem_pool *cudaMemPool_t;
/* the device's default (and current) pool: one per program (an inline function's static is shared by all files) */
inline cudaMemPool_t __pgcc_default_mem_pool(void) {
  static struct __pgcc_mem_pool pool = {0, {1, 1, 1}};
  return &pool;
}
static inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  if (device != 0)
    return cudaErrorInvalidDevice;
  *pool = __pgcc_default_mem_pool();
  return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
  return cudaDeviceGetDefaultMemPool(pool, device);
}
static inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value) {
  if (attr == cudaMemPoolAttrReleaseThreshold)
    pool->release_threshold = *(unsigned long long *)value;
  else if (attr >= cudaMemPoolReuseFollowEventDependencies && attr <= cudaMemPoolReuseAllowInternalDependencies)
    pool->reuse[attr - 1] = *(int *)value;
  else
    return cudaErrorInvalidValue; /* (the counters are read-only, as in CUDA) */
  return cudaSuccess;
}
static inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value) {
  if (attr == cudaMemPoolAttrReleaseThreshold)
    *(unsigned long long *)value = pool->release_threshold;
  else if (attr >= cudaMemPoolReuseFollowEventDependencies && attr <= cudaMemPoolReuseAllowInternalDependencies)
    *(int *)value = pool->reuse[attr - 1];
  else
    return cudaErrorNotSupported;
  return cudaSuccess;
}
/* freed memory goes back to the C library at once: nothing is held to trim */
static inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep) { return cudaSuccess; }
static inline cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t pool, cudaStream_t s) {
  return cudaMalloc(p, n);
}
template <class T> static inline cudaError_t cudaMallocFromPoolAsync(T **p, size_t n, cudaMemPool_t pool,
                                                                     cudaStream_t s) {
  return cudaMalloc((void **)p, n);
}
#endif
