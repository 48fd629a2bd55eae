/* polygeist-py's own CUDA runtime header: enough of the CUDA runtime API for CUDA programs to parse without a
   CUDA toolkit. pgcc gives the device builtins and runtime calls their meaning (host memory, host clocks);
   nothing here is compiled for a GPU. */
#ifndef PGCC_CUDA_RUNTIME_H
#define PGCC_CUDA_RUNTIME_H
#if defined(__clang__) && defined(__CUDA__) && !defined(__PGCC_HOST_PASS__)
/* device-side printf and assert, as nvcc's headers declare them __host__ __device__: the C library's
   declarations are made host-and-device here, before any user header includes them */
#pragma clang force_cuda_host_device begin
#include <stdio.h>
#include <assert.h>
#pragma clang force_cuda_host_device end
#endif
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#ifdef __PGCC_HOST_PASS__
/* nvcc's model (cuda_split.py): the host C++ compiler sees host code only; kernels and device functions are
   declarations there, device variables extern declarations of the device object's variables */
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#endif
#if !defined(__PGCC_HOST_PASS__) && defined(__CUDA__)
/* device-side malloc and free, as CUDA declares them: the C library's (thread-safe) heap on the CPU */
extern "C" {
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
}
#endif
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define CUDART_VERSION 12000
#ifndef __PGCC_CXX_FILE__ /* (a .cpp file including this header is not CUDA: nvcc does not define it there) */
#define __CUDACC__ 1
#endif

struct uint3 { unsigned int x, y, z; };
typedef struct uint3 uint3;
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};
typedef struct dim3 dim3;
#include "pgcc_vector_types.h"

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

#ifdef __PGCC_HOST_PASS__
/* host code compiled by the host compiler: handles of pgcc's runtime library (runtime/pgcc_cuda_runtime.c) */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#else
typedef unsigned long long cudaStream_t; /* pgcc: streams carry no state (everything runs in program order) */
typedef double cudaEvent_t; /* pgcc: an event is the host time (ms) at which it was recorded */
#endif

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevice = 101,
  cudaErrorIllegalState = 401,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorNoDevice = 100,
  cudaErrorAssert = 710,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

extern "C" {
int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
/* clang calls this one when it cannot see a CUDA installation (it then assumes a pre-9.2 runtime) */
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
/* a launch rewritten for the host compiler: the configuration, then a call of the kernel's stub */
int __pgcc_push_call_configuration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
cudaError_t cudaMemcpyToSymbol_bytes(void *symbol, const void *src, size_t count, size_t offset);
/* device limits: remembered and reported; the device heap is the host's (malloc in device code is the C
   library's thread-safe malloc), so cudaLimitMallocHeapSize bounds nothing */
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
                 cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
                 cudaLimitMaxL2FetchGranularity = 5 };
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = 1);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
/* streams: pgcc runs every launch and copy synchronously, in program order, so streams carry no state */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
}
/* hints that mean nothing when device memory is host memory, stream-ordered allocation, and clear errors for what
   pgcc's runtime does not provide */
enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2,
                        cudaMemAdviseSetPreferredLocation = 3, cudaMemAdviseUnsetPreferredLocation = 4,
                        cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
                         cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
#define cudaCpuDeviceId (-1)
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s = 0) {
  return cudaSuccess;
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a, int device) {
  return cudaSuccess;
}
/* memory locations (CUDA 12.2's cudaMemLocation, taken by the _v2 forms and by CUDA 13's cudaMemPrefetchAsync and
   cudaMemAdvise): hints too, the device's memory being the host's */
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2,
                           cudaMemLocationTypeHostNuma = 3, cudaMemLocationTypeHostNumaCurrent = 4 };
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc, unsigned int flags,
                                               cudaStream_t s = 0) {
  return cudaSuccess;
}
static inline cudaError_t cudaMemPrefetchAsync_v2(const void *p, size_t n, struct cudaMemLocation loc,
                                                  unsigned int flags, cudaStream_t s = 0) {
  return cudaSuccess;
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a, struct cudaMemLocation loc) {
  return cudaSuccess;
}
static inline cudaError_t cudaMemAdvise_v2(const void *p, size_t n, enum cudaMemoryAdvise a,
                                           struct cudaMemLocation loc) {
  return cudaSuccess;
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute a, int v) {
  return cudaSuccess;
}
static inline cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) { return cudaMalloc(p, n); }
template <class T> static inline cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) {
  return cudaMalloc((void **)p, n);
}
extern "C" int __pgcc_capture_free(cudaStream_t s);
/* (freed on a stream that a graph captures: kept, since every launch of the graph uses the memory) */
static inline cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return __pgcc_capture_free(s) ? cudaSuccess : cudaFree(p); }
#include "pgcc_cuda_mempool.h"
/* cudaLaunchKernel and cudaLaunchCooperativeKernel: the argument array unpacked into a call of the kernel's stub
   (the host pass sees the kernel itself: cuda_split.py removes a `(void *)` cast of the kernel argument). A
   cooperative launch runs every block on a thread of its own (grid synchronization is a real barrier between
   them), so at most __PGCC_MAX_COOPERATIVE_BLOCKS blocks, as a GPU allows only the blocks it holds at once. */
#define __PGCC_MAX_COOPERATIVE_BLOCKS 1024
#ifndef __PGCC_HOST_PASS__
/* the device pass parses host code only: a kernel cast to `void *` (cuda_split.py removes the cast for the host) */
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem = 0,
                             cudaStream_t stream = 0);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                        cudaStream_t stream = 0);
#endif
template <unsigned... I> struct __pgcc_index_seq {};
template <unsigned N, unsigned... I> struct __pgcc_make_index_seq : __pgcc_make_index_seq<N - 1, N - 1, I...> {};
template <unsigned... I> struct __pgcc_make_index_seq<0, I...> { typedef __pgcc_index_seq<I...> type; };
template <class T> struct __pgcc_unref { typedef T type; };
template <class T> struct __pgcc_unref<T &> { typedef T type; };
template <class... P, unsigned... I>
static inline void __pgcc_call_unpacked(void (*f)(P...), void **args, __pgcc_index_seq<I...>) {
  f(*(typename __pgcc_unref<P>::type *)args[I]...);
}
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                           cudaStream_t stream = 0) {
  __pgcc_push_call_configuration(grid, block, shmem, stream);
  __pgcc_call_unpacked(func, args, typename __pgcc_make_index_seq<sizeof...(P)>::type());
  return cudaSuccess;
}
template <class... P>
static inline cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                                                      size_t shmem = 0, cudaStream_t stream = 0) {
  if ((unsigned long long)grid.x * grid.y * grid.z > __PGCC_MAX_COOPERATIVE_BLOCKS)
    return cudaErrorCooperativeLaunchTooLarge;
  return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}
extern "C" {
void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
}

#include "pgcc_cuda_math.h"
#include "pgcc_cuda_atomics.h"
#include "pgcc_cuda_warp.h"
#include "pgcc_cuda_texture.h"
#include "pgcc_cuda_runtime_more.h"
#include "pgcc_cuda_graph.h"

/* The C++ overloads real programs rely on: cudaMalloc(&typed_ptr, n). */
template <class T> static inline cudaError_t cudaMalloc(T **devPtr, size_t size) { return cudaMalloc((void **)devPtr, size); }
template <class T> static inline cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = 1) { return cudaMallocManaged((void **)devPtr, size, flags); }
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size) { return cudaMallocHost((void **)ptr, size); }

/* Device queries: one device, the host CPU, described with CUDA's limits so that programs size their launches
   as they would on a GPU (the launch runs as loops over blocks and threads either way). */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
  int unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, concurrentManagedAccess;
  int cooperativeLaunch, cooperativeMultiDeviceLaunch;
  int pageableMemoryAccess, pageableMemoryAccessUsesHostPageTables, hostNativeAtomicSupported;
  int directManagedMemAccessFromHost, computePreemptionSupported, maxBlocksPerMultiProcessor;
  size_t sharedMemPerBlockOptin, reservedSharedMemPerBlock;
};
typedef struct cudaDeviceProp cudaDeviceProp;
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
                       cudaComputeModeExclusiveProcess = 3 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08

static inline size_t __pgcc_host_memory(void) { return (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGE_SIZE); }
static inline cudaError_t cudaGetDeviceCount(int *count) { *count = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDevice(int *device) { *device = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (device != 0)
    return cudaErrorInvalidDevice;
  memset(prop, 0, sizeof(cudaDeviceProp));
  strcpy(prop->name, "host CPU (pgcc --cpuify)");
  prop->totalGlobalMem = __pgcc_host_memory();
  prop->sharedMemPerBlock = 49152;
  prop->sharedMemPerMultiprocessor = 65536;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->clockRate = 1000000;
  prop->totalConstMem = 65536;
  prop->major = 7;
  prop->minor = 0;
  prop->textureAlignment = 512;
  prop->multiProcessorCount = (int)sysconf(_SC_NPROCESSORS_ONLN);
  prop->integrated = 1;
  prop->canMapHostMemory = 1;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->cooperativeLaunch = 1;
  /* streams are supported (each stream's work runs in order): programs check this before using them
     (Rodinia huffman's histogram returns without counting when it is 0) */
  prop->deviceOverlap = 1;
  prop->asyncEngineCount = 1;
  prop->concurrentKernels = 1;
  /* device memory is host memory: the host's pages and atomics are the device's */
  prop->concurrentManagedAccess = 1;
  prop->pageableMemoryAccess = 1;
  prop->pageableMemoryAccessUsesHostPageTables = 1;
  prop->hostNativeAtomicSupported = 1;
  prop->directManagedMemAccessFromHost = 1;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->sharedMemPerBlockOptin = 49152;
  return cudaSuccess;
}
/* device attributes (the values of CUDA's enum cudaDeviceAttr), answered from cudaGetDeviceProperties */
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrManagedMemory = 83, cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrMemoryPoolsSupported = 115
};
static inline cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess)
    return e;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
  case cudaDevAttrWarpSize: *value = p.warpSize; break;
  case cudaDevAttrClockRate: *value = p.clockRate; break;
  case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
  case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
  case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
  case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
  case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
  case cudaDevAttrMemoryPoolsSupported: *value = 1; break; /* (pgcc_cuda_mempool.h) */
  default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
/* occupancy: a CPU core stands for a multiprocessor holding maxThreadsPerMultiProcessor (2048) threads; every
   kernel may use blocks of up to 1024 threads */
template <class T> static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
    int blockSize, size_t dynamicSMemSize = 0) {
  *numBlocks = blockSize > 0 && blockSize <= 1024 ? 2048 / blockSize : 0;
  return blockSize > 0 && blockSize <= 1024 ? cudaSuccess : cudaErrorInvalidValue;
}
template <class T> static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
    T func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}
template <class T> static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
    T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int bs = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
  *blockSize = bs;
  *minGridSize = p.multiProcessorCount * (2048 / bs);
  return cudaSuccess;
}
/* one device: no peers */
static inline cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer) { *can = 0; return cudaSuccess; }
static inline cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) { return cudaErrorInvalidDevice; }
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  *total_bytes = __pgcc_host_memory();
  *free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGE_SIZE);
  return cudaSuccess;
}
static inline cudaError_t cudaDriverGetVersion(int *version) { *version = CUDART_VERSION; return cudaSuccess; }
static inline cudaError_t cudaRuntimeGetVersion(int *version) { *version = CUDART_VERSION; return cudaSuccess; }
/* cache and scheduling preferences mean nothing on the host */
#define cudaFuncSetCacheConfig(func, config) cudaSuccess
#define cudaDeviceSetCacheConfig(config) cudaSuccess
#define cudaThreadSetCacheConfig(config) cudaSuccess
#define cudaSetDeviceFlags(flags) cudaSuccess
#define cudaHostAlloc(ptr, size, flags) cudaMallocHost((ptr), (size))
#define cudaHostGetDevicePointer(dptr, hptr, flags) (*(void **)(dptr) = (void *)(hptr), cudaSuccess)
#define cudaThreadExit() cudaSuccess
/* page-locking host memory: kernels already read host memory, so registering it changes nothing */
static inline cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  (void)ptr; (void)size; (void)flags;
  return cudaSuccess;
}
static inline cudaError_t cudaHostUnregister(void *ptr) { (void)ptr; return cudaSuccess; }
static inline cudaError_t cudaHostGetFlags(unsigned int *flags, void *ptr) {
  (void)ptr; *flags = cudaHostAllocMapped;
  return cudaSuccess;
}

/* __constant__/__device__ globals: the symbol is the variable itself */
#ifdef __PGCC_HOST_PASS__
template <class T> static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol_bytes((void *)&symbol, src, count, offset);
}
template <class T> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  memmove(dst, (const char *)&symbol + offset, count);
  return cudaSuccess;
}
template <class T> static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src,
    size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t s = 0) {
  if (__pgcc_capture_copy2d(s, (char *)&symbol + offset, count, src, count, count, 1))
    return cudaSuccess;
  return cudaMemcpyToSymbol_bytes((void *)&symbol, src, count, offset);
}
template <class T> static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t s = 0) {
  if (__pgcc_capture_copy2d(s, dst, count, (const char *)&symbol + offset, count, count, 1))
    return cudaSuccess;
  memmove(dst, (const char *)&symbol + offset, count);
  return cudaSuccess;
}
/* a symbol named by a string ("c_clusters", CUDA before 5.0): CUDA 5.0 and later return
   cudaErrorInvalidSymbol and copy nothing (a char array variable is a symbol as any other) */
template <size_t N> static inline cudaError_t cudaMemcpyToSymbol(const char (&symbol)[N], const void *src,
    size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaErrorInvalidSymbol;
}
template <size_t N> static inline cudaError_t cudaMemcpyToSymbol(char (&symbol)[N], const void *src,
    size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol_bytes((void *)&symbol, src, count, offset);
}
template <size_t N> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const char (&symbol)[N],
    size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaErrorInvalidSymbol;
}
template <size_t N> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, char (&symbol)[N], size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  memmove(dst, (const char *)&symbol + offset, count);
  return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  *devPtr = (void *)&symbol;
  return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  *size = sizeof(T);
  return cudaSuccess;
}
#else
template <class T> static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
    size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                         enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                         cudaStream_t s = 0);
template <class T> cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol);
template <class T> cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol);
#endif

#endif
