// Block-stride loops with constant bounds: one whose last round of threads ends exactly at the bound (its
// interchanged body needs no bounds guard) and two whose last round overruns the bound (guarded).
// Integer data; tests/test_cuda_cpu_opts.py recomputes the results in Python.
#include <stdio.h>
#include <cuda_runtime.h>

#define THREADS 16
#define BLOCKS 3
#define TABLE 400   /* 25 rounds of 16 threads */

__global__ void stage(const int *src, int *dst)
{
    __shared__ int buf[TABLE];
    int t = threadIdx.x;
    for (int k = t; k < TABLE; k += THREADS)          /* exact: k never reaches TABLE */
        buf[k] = src[k] * 3 + blockIdx.x;
    for (int k = t + 2; k < TABLE; k += THREADS)      /* starts at 2: the last round overruns */
        buf[k] += 1;
    __syncthreads();
    for (int k = t; k < TABLE - 3; k += THREADS)      /* overruns by 3 */
        dst[blockIdx.x * TABLE + k] = buf[(k * 7) % TABLE];
}

int main(void)
{
    int h_src[TABLE], h_dst[BLOCKS * TABLE];
    for (int i = 0; i < TABLE; i++)
        h_src[i] = (i * 13 + 5) % 97;
    for (int i = 0; i < BLOCKS * TABLE; i++)
        h_dst[i] = -1;
    int *d_src, *d_dst;
    cudaMalloc((void **)&d_src, sizeof h_src);
    cudaMalloc((void **)&d_dst, sizeof h_dst);
    cudaMemcpy(d_src, h_src, sizeof h_src, cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, h_dst, sizeof h_dst, cudaMemcpyHostToDevice);
    stage<<<BLOCKS, THREADS>>>(d_src, d_dst);
    cudaMemcpy(h_dst, d_dst, sizeof h_dst, cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < BLOCKS * TABLE; i++)
        sum += (long long)h_dst[i] * (i % 11 + 1);
    printf("%d %d %d %d %lld\n", h_dst[0], h_dst[TABLE - 4], h_dst[TABLE - 3], h_dst[2 * TABLE + 5], sum);
    cudaFree(d_src);
    cudaFree(d_dst);
    return 0;
}
