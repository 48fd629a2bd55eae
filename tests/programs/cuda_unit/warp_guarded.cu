// Warp intrinsics under conditions that are uniform within each warp but not across the block:
// the first warp reduces per-warp partials (results used after the if), a loop of shuffles inside the if.
// tests/test_cuda_warp.py recomputes the output in Python.
#include <stdio.h>
#include <cuda_runtime.h>

#define THREADS 256
#define FULL 0xffffffffu

__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

__global__ void block_sum(const int *in, int *out, int *out2)
{
    __shared__ int part[THREADS / 32];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int v = in[blockIdx.x * THREADS + t];
    v = warp_sum(v);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    int total = 0;
    if (warp == 0) {
        total = lane < THREADS / 32 ? part[lane] : 0;
        total = warp_sum(total);
    }
    if (t == 0)
        out[blockIdx.x] = total;
    if (warp == 1) {
        int m = part[lane % 8] * (lane + 1);
        for (int off = 1; off < 32; off *= 2)
            m = max(m, __shfl_xor_sync(FULL, m, off));
        if (lane == 3)
            out2[blockIdx.x] = m;
    }
}

int main(void)
{
    const int blocks = 3, n = blocks * THREADS;
    int h_in[n], h_out[blocks], h_out2[blocks];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7 + 3) % 23 - 11;
    int *d_in, *d_out, *d_out2;
    cudaMalloc((void **)&d_in, sizeof h_in);
    cudaMalloc((void **)&d_out, sizeof h_out);
    cudaMalloc((void **)&d_out2, sizeof h_out2);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    block_sum<<<blocks, THREADS>>>(d_in, d_out, d_out2);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_out2, d_out2, sizeof h_out2, cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        printf("%d %d\n", h_out[b], h_out2[b]);
    return 0;
}
