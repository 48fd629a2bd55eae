// Thread-strided loops (grid-stride and block-stride, several index forms) and atomics on shared memory.
// Integer data, so the results are exact; tests/test_cuda_cpu_opts.py recomputes them in Python.
#include <stdio.h>
#include <cuda_runtime.h>

#define N 1000
#define T 64
#define B 5

// grid-stride loop with two per-thread partial results, then a shared-memory tree per block
__global__ void grid_sum(const int *x, int n, int *block_sum, int *block_max)
{
    __shared__ int s[T], m[T];
    int sum = 0, mx = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sum += x[i] * (threadIdx.x % 3 + 1);
        mx = x[i] > mx ? x[i] : mx;
    }
    s[threadIdx.x] = sum;
    m[threadIdx.x] = mx;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) {
            s[threadIdx.x] += s[threadIdx.x + h];
            m[threadIdx.x] = m[threadIdx.x + h] > m[threadIdx.x] ? m[threadIdx.x + h] : m[threadIdx.x];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        block_sum[blockIdx.x] = s[0];
        block_max[blockIdx.x] = m[0];
    }
}

// index forms: 2*tid with stride 2*blockDim (`<=` bound), `n > i` bound, a reversed (descending-offset) start
// that must not be reordered wrongly, a local array live across the loop, and a loop whose body writes what
// the next thread reads (the order of iterations inside one thread matters)
__global__ void forms(int *out, const int *x, int n)
{
    int t = threadIdx.x;
    int acc[2] = {t, 0};
    for (int i = 2 * t; i <= n - 1; i += 2 * blockDim.x)
        acc[1] += x[i];
    int b = 0;
    for (int i = t + 1; n > i; i += blockDim.x)
        b = b * 3 + x[i] % 5;  // depends on the order of the thread's iterations
    int c = 0;
    for (int i = blockDim.x - 1 - t; i < n; i += blockDim.x)
        c += x[i] * (i % 7);
    out[3 * t] = acc[0] + acc[1];
    out[3 * t + 1] = b;
    out[3 * t + 2] = c;
}

// atomics on shared memory (plain read-modify-write on a CPU) next to atomics on global memory
__global__ void shared_atomics(const int *x, int n, int *hist, unsigned int *wrap, int *best)
{
    __shared__ int h[8];
    __shared__ unsigned int w;
    __shared__ int top;
    if (threadIdx.x < 8)
        h[threadIdx.x] = 0;
    if (threadIdx.x == 0) {
        w = 0;
        top = -1;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&h[x[i] % 8], 1);
        atomicInc(&w, 10u);
        atomicMax(&top, x[i]);
    }
    __syncthreads();
    if (threadIdx.x < 8)
        atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
    if (threadIdx.x == 0) {
        wrap[blockIdx.x] = w;
        atomicMax(best, top);
    }
}

int main(void)
{
    int h_x[N], h_sum[B], h_max[B], h_out[3 * T], h_hist[8], h_best;
    unsigned int h_wrap[B];
    for (int i = 0; i < N; i++)
        h_x[i] = (i * 37 + 11) % 101;
    int *x, *bs, *bm, *out, *hist, *best;
    unsigned int *wrap;
    cudaMalloc(&x, sizeof h_x);
    cudaMalloc(&bs, sizeof h_sum);
    cudaMalloc(&bm, sizeof h_max);
    cudaMalloc(&out, sizeof h_out);
    cudaMalloc(&hist, sizeof h_hist);
    cudaMalloc(&wrap, sizeof h_wrap);
    cudaMalloc(&best, sizeof h_best);
    cudaMemcpy(x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    cudaMemset(hist, 0, sizeof h_hist);
    cudaMemset(best, 0, sizeof h_best);
    grid_sum<<<B, T>>>(x, N, bs, bm);
    forms<<<1, T>>>(out, x, N);
    shared_atomics<<<B, T>>>(x, N, hist, wrap, best);
    cudaMemcpy(h_sum, bs, sizeof h_sum, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_max, bm, sizeof h_max, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_hist, hist, sizeof h_hist, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_wrap, wrap, sizeof h_wrap, cudaMemcpyDeviceToHost);
    cudaMemcpy(&h_best, best, sizeof h_best, cudaMemcpyDeviceToHost);
    for (int b = 0; b < B; b++)
        printf("%d %d\n", h_sum[b], h_max[b]);
    for (int t = 0; t < 3 * T; t++)
        printf("%d ", h_out[t]);
    printf("\n");
    for (int k = 0; k < 8; k++)
        printf("%d ", h_hist[k]);
    printf("\n");
    for (int b = 0; b < B; b++)
        printf("%u ", h_wrap[b]);
    printf("\n%d\n", h_best);
    return 0;
}
