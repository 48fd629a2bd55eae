/*
 * prefix_scan.cu - inclusive prefix sum of an int array with a
 * work-efficient (up-sweep / down-sweep) block scan in shared memory.
 *
 * Level 1: every 256-thread block scans a 512-element segment in a
 * __shared__ buffer (two elements per thread).  The up-sweep builds partial
 * sums in a balanced tree in place; the root (the segment total) is saved
 * as the block's sum and replaced by zero; the down-sweep turns the tree
 * into an exclusive scan, and each thread adds its own inputs back to get
 * the inclusive result.
 * Level 2: the same kernel, as a single block, scans the block sums.
 * Level 3: a second kernel adds the scanned sum of all earlier segments to
 * each segment (one thread loads the offset into shared memory).
 *
 * Integer data: the result is exact and independent of scheduling.
 * Usage: prefix_scan [n]      (default n = 200000, at most 512 * 512)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define THREADS 256
#define SEG (2 * THREADS)

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

__global__ void scan_segments(const int *in, int *out, int n,
                              int *seg_sums, int write_sums)
{
    __shared__ int buf[SEG];

    int tid = threadIdx.x;
    int base = blockIdx.x * SEG;
    int ia = base + tid;
    int ib = base + tid + THREADS;
    int va = ia < n ? in[ia] : 0;
    int vb = ib < n ? in[ib] : 0;
    buf[tid] = va;
    buf[tid + THREADS] = vb;

    /* up-sweep: after the step with width w, buf[k*2w + 2w - 1] holds the
     * sum of its 2w-element block */
    int offset = 1;
    for (int active = SEG / 2; active > 0; active >>= 1) {
        __syncthreads();
        if (tid < active) {
            int left = offset * (2 * tid + 1) - 1;
            int right = offset * (2 * tid + 2) - 1;
            buf[right] += buf[left];
        }
        offset *= 2;
    }

    __syncthreads();
    if (tid == 0) {
        if (write_sums)
            seg_sums[blockIdx.x] = buf[SEG - 1];
        buf[SEG - 1] = 0;
    }

    /* down-sweep: push prefixes from the root to the leaves */
    for (int active = 1; active < SEG; active *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < active) {
            int left = offset * (2 * tid + 1) - 1;
            int right = offset * (2 * tid + 2) - 1;
            int t = buf[left];
            buf[left] = buf[right];
            buf[right] += t;
        }
    }
    __syncthreads();

    if (ia < n)
        out[ia] = buf[tid] + va;
    if (ib < n)
        out[ib] = buf[tid + THREADS] + vb;
}

__global__ void add_segment_offsets(int *data, const int *scanned_sums, int n)
{
    __shared__ int offset;

    if (threadIdx.x == 0)
        offset = blockIdx.x > 0 ? scanned_sums[blockIdx.x - 1] : 0;
    __syncthreads();

    int i = blockIdx.x * SEG + threadIdx.x;
    if (i < n)
        data[i] += offset;
    if (i + THREADS < n)
        data[i + THREADS] += offset;
}

int main(int argc, char **argv)
{
    int n = 200000;
    int repeat = 1;  /* timing only: the three launches run `repeat` times, same results */
    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        repeat = atoi(argv[2]);
    if (n <= 0 || n > SEG * SEG || repeat <= 0) {
        fprintf(stderr, "usage: %s [n [repeat]], 0 < n <= %d\n", argv[0], SEG * SEG);
        return 1;
    }
    int segs = (n + SEG - 1) / SEG;

    int *h_in = (int *)malloc((size_t)n * sizeof(int));
    int *h_out = (int *)malloc((size_t)n * sizeof(int));
    if (!h_in || !h_out) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    unsigned int state = 7u;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        h_in[i] = (int)((state >> 16) % 100u) - 49;
    }

    int *d_in, *d_out, *d_sums, *d_sums_scanned;
    CHECK(cudaMalloc((void **)&d_in, (size_t)n * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_out, (size_t)n * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_sums, segs * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_sums_scanned, segs * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));

    for (int r = 0; r < repeat; r++) {
        scan_segments<<<segs, THREADS>>>(d_in, d_out, n, d_sums, 1);
        CHECK(cudaGetLastError());
        scan_segments<<<1, THREADS>>>(d_sums, d_sums_scanned, segs, d_sums, 0);
        CHECK(cudaGetLastError());
        add_segment_offsets<<<segs, THREADS>>>(d_out, d_sums_scanned, n);
        CHECK(cudaGetLastError());
    }

    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "scan of %d ints in %d segments: %.3f ms\n", n, segs, ms);

    CHECK(cudaMemcpy(h_out, d_out, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));

    /* check against a running sum on the host */
    int running = 0, mismatches = 0, first_bad = -1;
    for (int i = 0; i < n; i++) {
        running += h_in[i];
        if (h_out[i] != running) {
            if (first_bad < 0)
                first_bad = i;
            mismatches++;
        }
    }
    int lo = 0, hi = 0;
    long long total = 0;
    unsigned int hash = 0u;
    for (int i = 0; i < n; i++) {
        if (h_out[i] < h_out[lo])
            lo = i;
        if (h_out[i] > h_out[hi])
            hi = i;
        total += h_out[i];
        hash = hash * 31u + (unsigned int)h_out[i];
    }

    printf("prefix_scan n=%d segments=%d\n", n, segs);
    printf("out[0] = %d\n", h_out[0]);
    printf("out[%d] = %d\n", SEG - 1 < n ? SEG - 1 : n - 1, h_out[SEG - 1 < n ? SEG - 1 : n - 1]);
    printf("out[%d] = %d\n", n / 2, h_out[n / 2]);
    printf("out[%d] = %d\n", n - 1, h_out[n - 1]);
    printf("min prefix %d at %d, max prefix %d at %d\n", h_out[lo], lo, h_out[hi], hi);
    printf("sum of prefixes = %lld\n", total);
    printf("hash = %08x\n", hash);
    printf("mismatches = %d (first %d)\n", mismatches, first_bad);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_sums_scanned));
    free(h_in);
    free(h_out);
    return 0;
}
