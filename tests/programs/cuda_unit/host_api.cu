/* Host-side CUDA runtime calls that real programs make before and around their launches: device count and
 * properties, memory info, versions, cache preferences, pinned host allocations, error checks in a macro. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err = (call);                                            \
        if (err != cudaSuccess) {                                            \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err));     \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v + i;
}

int main(void)
{
    int count = -1, dev = -1, driver = 0, runtime = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    size_t free_bytes = 0, total_bytes = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
    int threads = prop.maxThreadsPerBlock < 256 ? prop.maxThreadsPerBlock : 256;
    int n = 1000, *h, *d;
    CHECK(cudaHostAlloc((void **)&h, n * sizeof(int), cudaHostAllocDefault));
    CHECK(cudaMalloc((void **)&d, n * sizeof(int)));
    fill<<<(n + threads - 1) / threads, threads>>>(d, n, 5);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("count %d device %d warp %d threads %d sms>0 %d mem %d versions %d\n", count, dev, prop.warpSize,
           threads, prop.multiProcessorCount > 0, total_bytes >= free_bytes && free_bytes > 0,
           driver > 0 && runtime == driver);
    printf("sum %ld bad device %d\n", sum, cudaGetDeviceProperties(&prop, 3) != cudaSuccess);
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return 0;
}
