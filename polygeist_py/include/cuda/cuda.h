/* polygeist-py: see cuda_runtime.h */
#include "cuda_runtime.h"

#ifndef __PGCC_CUDA_H__
#define __PGCC_CUDA_H__
/* The driver API's result codes and handle types, which runtime-API programs compare against
   (`cudaBindTexture(...) != CUDA_SUCCESS`). The driver API's functions (cuInit, cuMemAlloc, ...) are not
   provided: a call to one is an undeclared-function error naming it. */
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
#endif
