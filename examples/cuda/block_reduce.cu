/*
 * block_reduce.cu - sum and maximum of a large float array with a two-pass
 * shared-memory tree reduction.
 *
 * Pass 1: a capped 1-D grid of 256-thread blocks.  Each thread walks the
 * array with a grid stride, two elements per step (i and i + blockDim.x),
 * keeping a private sum and max; the block then combines the per-thread
 * values with a halving tree in __shared__ memory and thread 0 writes one
 * partial sum and one partial max per block.
 * Pass 2: the same kernel, launched as a single block, reduces the
 * per-block partials to the final pair.
 *
 * Determinism: the order of every float addition is fixed by the thread
 * and block indices (not by scheduling), and the C reference replays the
 * same order, so the float results are bit-identical.
 * Usage: block_reduce [n]        (default n = 1000003)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 512
#define NEG_BIG (-3.0e38f)

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* sum_in and max_in may be the same array (first pass) or the partial
 * sums and partial maxima of a previous pass. */
__global__ void reduce_sum_max(const float *sum_in, const float *max_in, int n,
                               float *sum_out, float *max_out)
{
    __shared__ float s_sum[THREADS];
    __shared__ float s_max[THREADS];

    unsigned int tid = threadIdx.x;
    int stride = gridDim.x * blockDim.x * 2;
    float sum = 0.0f;
    float mx = NEG_BIG;

    for (int i = blockIdx.x * blockDim.x * 2 + tid; i < n; i += stride) {
        sum += sum_in[i];
        mx = max_in[i] > mx ? max_in[i] : mx;
        int j = i + blockDim.x;
        if (j < n) {
            sum += sum_in[j];
            mx = max_in[j] > mx ? max_in[j] : mx;
        }
    }
    s_sum[tid] = sum;
    s_max[tid] = mx;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            s_sum[tid] += s_sum[tid + s];
            if (s_max[tid + s] > s_max[tid])
                s_max[tid] = s_max[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        sum_out[blockIdx.x] = s_sum[0];
        max_out[blockIdx.x] = s_max[0];
    }
}

static unsigned int seed = 2024u;

static float next_value(int i)
{
    seed = seed * 1103515245u + 12345u;
    float noise = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;  /* [-0.5, 0.5) */
    float trend = (float)(i % 1000) * 0.001f;                        /* [0, 1) */
    return noise + trend;
}

int main(int argc, char **argv)
{
    int n = 1000003;
    int repeat = 1;  /* timing only: the two launches run `repeat` times, same results */
    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        repeat = atoi(argv[2]);
    if (n <= 0 || repeat <= 0) {
        fprintf(stderr, "usage: %s [n > 0 [repeat > 0]]\n", argv[0]);
        return 1;
    }

    int blocks = (n + 2 * THREADS - 1) / (2 * THREADS);
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;

    float *h_x = (float *)malloc((size_t)n * sizeof(float));
    if (!h_x) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        h_x[i] = next_value(i);
    h_x[n / 3] = 7.25f;  /* a known maximum */

    float *d_x, *d_psum, *d_pmax, *d_sum, *d_max;
    CHECK(cudaMalloc((void **)&d_x, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_psum, blocks * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_pmax, blocks * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_sum, sizeof(float)));
    CHECK(cudaMalloc((void **)&d_max, sizeof(float)));
    CHECK(cudaMemcpy(d_x, h_x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));

    for (int r = 0; r < repeat; r++) {
        reduce_sum_max<<<blocks, THREADS>>>(d_x, d_x, n, d_psum, d_pmax);
        CHECK(cudaGetLastError());
        reduce_sum_max<<<1, THREADS>>>(d_psum, d_pmax, blocks, d_sum, d_max);
        CHECK(cudaGetLastError());
    }

    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "reduce %d floats with %d blocks: %.3f ms\n", n, blocks, ms);

    float *h_psum = (float *)malloc(blocks * sizeof(float));
    float *h_pmax = (float *)malloc(blocks * sizeof(float));
    float gpu_sum, gpu_max;
    CHECK(cudaMemcpy(h_psum, d_psum, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_pmax, d_pmax, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gpu_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gpu_max, d_max, sizeof(float), cudaMemcpyDeviceToHost));

    double host_sum = 0.0;
    for (int i = 0; i < n; i++)
        host_sum += h_x[i];

    printf("block_reduce n=%d blocks=%d threads=%d\n", n, blocks, THREADS);
    printf("partial[0]: sum = %.6f max = %.6f\n", h_psum[0], h_pmax[0]);
    printf("partial[%d]: sum = %.6f max = %.6f\n", blocks - 1,
           h_psum[blocks - 1], h_pmax[blocks - 1]);
    printf("sum = %.6f\n", gpu_sum);
    printf("max = %.6f\n", gpu_max);
    printf("mean = %.6f\n", gpu_sum / (float)n);
    printf("host double sum = %.6f\n", host_sum);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_psum));
    CHECK(cudaFree(d_pmax));
    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_max));
    free(h_x);
    free(h_psum);
    free(h_pmax);
    return 0;
}
