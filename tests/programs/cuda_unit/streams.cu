// Streams under --cpuify: chunks copied with cudaMemcpyAsync, processed by launches on per-chunk streams
// (with dynamic shared memory: <<<grid, block, bytes, stream>>>), copied back asynchronously, then
// synchronized; cudaMemsetAsync, cudaStreamCreateWithFlags, events recorded on streams and
// cudaStreamWaitEvent. pgcc runs everything synchronously in program order, which is one legal CUDA schedule
// of these dependences. tests/test_cuda_streams.py recomputes the output.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N 1000
#define CHUNKS 4

__global__ void reverse_scale(float *x, float a, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        x[i] = a * buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void add_counts(int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] += i % 3;
}

int main(void)
{
    const int c = N / CHUNKS;
    float *h = (float *)malloc(N * sizeof(float));
    int hc[64];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    float *d;
    int *dc;
    cudaMalloc(&d, N * sizeof(float));
    cudaMalloc(&dc, sizeof hc);
    cudaStream_t *s = (cudaStream_t *)malloc(CHUNKS * sizeof(cudaStream_t));
    for (int k = 0; k < CHUNKS; k++)
        cudaStreamCreate(&s[k]);
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaEvent_t copied;
    cudaEventCreate(&copied);

    for (int k = 0; k < CHUNKS; k++) {
        cudaMemcpyAsync(d + k * c, h + k * c, c * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        reverse_scale<<<(c + 49) / 50, 50, 50 * sizeof(float), s[k]>>>(d + k * c, 2.0f + k, c);
        cudaMemcpyAsync(h + k * c, d + k * c, c * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaMemsetAsync(dc, 0, sizeof hc, side);
    cudaEventRecord(copied, side);
    cudaStreamWaitEvent(s[0], copied, 0);
    add_counts<<<2, 32, 0, s[0]>>>(dc, 64);
    add_counts<<<1, 64, 0, side>>>(dc, 64);
    cudaMemcpyAsync(hc, dc, sizeof hc, cudaMemcpyDeviceToHost, side);
    for (int k = 0; k < CHUNKS; k++) {
        cudaStreamSynchronize(s[k]);
        cudaStreamDestroy(s[k]);
    }
    cudaStreamSynchronize(side);
    cudaStreamDestroy(side);

    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += h[i];
    int csum = 0;
    for (int i = 0; i < 64; i++)
        csum += hc[i] * (i + 1);
    printf("%.1f %.1f %.1f %.1f %d\n", h[0], h[499], h[999], sum, csum);
    return 0;
}
