/*
 * histogram_atomic.cu - 256-bin byte histogram with per-block shared-memory
 * sub-histograms.
 *
 * Each block clears a 256-entry __shared__ histogram, synchronizes, then its
 * threads walk the input with a grid stride, reading four bytes at a time
 * as one 32-bit word and counting each byte with atomicAdd on the shared
 * bins.  After a second __syncthreads() the block adds its non-zero bins to
 * the global histogram with atomicAdd.  Bytes past the last full word are
 * counted by the first few threads of the grid.  The input is a skewed
 * byte stream from a small LCG; the host then reports the most frequent
 * bytes and the Shannon entropy.
 *
 * Integer counts: the result is exact whatever order the atomics run in.
 * Usage: histogram_atomic [n_bytes]     (default 3000001)
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define BINS 256
#define THREADS 256
#define BLOCKS 48

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

__global__ void histogram_shared(const unsigned int *words, const unsigned char *bytes,
                                 int n, unsigned int *hist)
{
    __shared__ unsigned int local[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    int nwords = n / 4;
    for (int w = gid; w < nwords; w += stride) {
        unsigned int v = words[w];
        atomicAdd(&local[v & 0xffu], 1u);
        atomicAdd(&local[(v >> 8) & 0xffu], 1u);
        atomicAdd(&local[(v >> 16) & 0xffu], 1u);
        atomicAdd(&local[v >> 24], 1u);
    }
    if (gid < n - nwords * 4)
        atomicAdd(&local[bytes[nwords * 4 + gid]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int c = local[b];
        if (c != 0)
            atomicAdd(&hist[b], c);
    }
}

int main(int argc, char **argv)
{
    int n = 3000001;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n_bytes > 0]\n", argv[0]);
        return 1;
    }

    /* allocate whole words so the buffer can be read as unsigned ints */
    size_t padded = ((size_t)n + 3) / 4 * 4;
    unsigned char *h_data = (unsigned char *)malloc(padded);
    unsigned int *h_hist = (unsigned int *)malloc(BINS * sizeof(unsigned int));
    if (!h_data || !h_hist) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    unsigned int state = 1u;
    for (int i = 0; i < n; i++) {
        state = state * 22695477u + 1u;
        unsigned int a = (state >> 24) & 0xffu;
        unsigned int b = (state >> 16) & 0xffu;
        /* product of two uniform bytes: many small values, few large */
        h_data[i] = (unsigned char)((a * b) >> 8);
        if ((state >> 13) % 7u == 0u)
            h_data[i] = (unsigned char)('a' + (state >> 9) % 26u);
    }
    for (size_t i = n; i < padded; i++)
        h_data[i] = 0;

    unsigned char *d_data;
    unsigned int *d_hist;
    CHECK(cudaMalloc((void **)&d_data, padded));
    CHECK(cudaMalloc((void **)&d_hist, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, h_data, padded, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    histogram_shared<<<BLOCKS, THREADS>>>((const unsigned int *)d_data, d_data, n, d_hist);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "histogram of %d bytes: %.3f ms (%.1f MB/s)\n", n, ms,
            ms > 0.0f ? n / (ms * 1.0e3) : 0.0);

    CHECK(cudaMemcpy(h_hist, d_hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    long long total = 0, weighted = 0;
    int empty = 0;
    double entropy = 0.0;
    for (int b = 0; b < BINS; b++) {
        total += h_hist[b];
        weighted += (long long)b * h_hist[b];
        if (h_hist[b] == 0)
            empty++;
        else {
            double p = (double)h_hist[b] / n;
            entropy -= p * log2(p);
        }
    }

    printf("histogram_atomic n=%d blocks=%d threads=%d\n", n, BLOCKS, THREADS);
    printf("total = %lld, empty bins = %d\n", total, empty);
    printf("sum of byte values = %lld\n", weighted);
    printf("entropy = %.4f bits/byte\n", entropy);
    /* five most frequent bytes (ties broken by the smaller byte) */
    int taken[BINS];
    for (int b = 0; b < BINS; b++)
        taken[b] = 0;
    for (int r = 0; r < 5; r++) {
        int best = -1;
        for (int b = 0; b < BINS; b++)
            if (!taken[b] && (best < 0 || h_hist[b] > h_hist[best]))
                best = b;
        taken[best] = 1;
        printf("top %d: byte %3d count %u\n", r + 1, best, h_hist[best]);
    }
    for (int b = 0; b < BINS; b += 32) {
        printf("bins %3d..%3d:", b, b + 7);
        for (int k = b; k < b + 8; k++)
            printf(" %u", h_hist[k]);
        printf("\n");
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    free(h_data);
    free(h_hist);
    return 0;
}
