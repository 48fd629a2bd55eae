/* polygeist-py: see cuda_runtime.h */
#include "cuda_runtime.h"

#ifndef __PGCC_CUDA_H__
#define __PGCC_CUDA_H__
/* The driver API's result codes and handle types, which runtime-API programs compare against
   (`cudaBindTexture(...) != CUDA_SUCCESS`), and the driver API's device queries that runtime-API programs
   call beside it (Rodinia mummergpu's `cuMemGetInfo`, the SDK's CUT_DEVICE_INIT_DRV: `cuInit`,
   `cuDeviceGetCount`, `cuDeviceComputeCapability`, `cuDeviceGet`), answered as the runtime's
   cudaGetDeviceProperties/cudaMemGetInfo answer. The rest of the driver API (modules, contexts, cuMemAlloc,
   cuLaunchKernel, ...) is not provided: a call to one is an undeclared-function error naming it. */
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif

/* one device (ordinal 0), as the runtime API reports it */
static inline CUresult cuInit(unsigned int flags) { (void)flags; return CUDA_SUCCESS; }
static inline CUresult cuDriverGetVersion(int *version) { *version = CUDA_VERSION; return CUDA_SUCCESS; }
static inline CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }
static inline CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}
static inline CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice device) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
  *major = p.major;
  *minor = p.minor;
  return CUDA_SUCCESS;
}
static inline CUresult cuDeviceGetName(char *name, int len, CUdevice device) {
  cudaDeviceProp p;
  if (len <= 0 || cudaGetDeviceProperties(&p, device) != cudaSuccess) return CUDA_ERROR_INVALID_VALUE;
  strncpy(name, p.name, (size_t)len - 1);
  name[len - 1] = 0;
  return CUDA_SUCCESS;
}
static inline CUresult cuDeviceTotalMem(size_t *bytes, CUdevice device) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = p.totalGlobalMem;
  return CUDA_SUCCESS;
}
static inline CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  return cudaMemGetInfo(free_bytes, total_bytes) == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
#endif
