/*
 * OpenMP version of examples/cuda/block_reduce.cu (for benchmarks/cpuify_vs_openmp.py): the same two-pass
 * reduction (strided per-slot partials, then a halving tree per chunk), the chunks of the first pass split
 * between the OpenMP threads.  Each chunk keeps the CUDA program's float order, so the sums are identical.
 * Usage: block_reduce [n [repeat]]; the passes are timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define THREADS 256
#define MAX_BLOCKS 512
#define NEG_BIG (-3.0e38f)

static unsigned int seed = 2024u;

static float next_value(int i)
{
    seed = seed * 1103515245u + 12345u;
    float noise = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
    float trend = (float)(i % 1000) * 0.001f;
    return noise + trend;
}

/* One launch of reduce_sum_max with `grid` blocks of THREADS threads. */
static void reduce_sum_max(const float *sum_in, const float *max_in, int n,
                           float *sum_out, float *max_out, int grid)
{
    int stride = grid * THREADS * 2;
    int b;
#pragma omp parallel for if (grid > 1)
    for (b = 0; b < grid; b++) {
        float s_sum[THREADS], s_max[THREADS];
        int t, i, s;
        for (t = 0; t < THREADS; t++) {
            float sum = 0.0f, mx = NEG_BIG;
            for (i = b * THREADS * 2 + t; i < n; i += stride) {
                sum += sum_in[i];
                mx = max_in[i] > mx ? max_in[i] : mx;
                if (i + THREADS < n) {
                    sum += sum_in[i + THREADS];
                    mx = max_in[i + THREADS] > mx ? max_in[i + THREADS] : mx;
                }
            }
            s_sum[t] = sum;
            s_max[t] = mx;
        }
        for (s = THREADS / 2; s > 0; s >>= 1)
            for (t = 0; t < s; t++) {
                s_sum[t] += s_sum[t + s];
                if (s_max[t + s] > s_max[t])
                    s_max[t] = s_max[t + s];
            }
        sum_out[b] = s_sum[0];
        max_out[b] = s_max[0];
    }
}

int main(int argc, char **argv)
{
    int n = 1000003, repeat = 1;
    int i, r;
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

    float *x = (float *)malloc((size_t)n * sizeof(float));
    float *psum = (float *)malloc(blocks * sizeof(float));
    float *pmax = (float *)malloc(blocks * sizeof(float));
    if (!x || !psum || !pmax) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        x[i] = next_value(i);
    x[n / 3] = 7.25f;

    float sum, mx;
    double t0 = omp_get_wtime();
    for (r = 0; r < repeat; r++) {
        reduce_sum_max(x, x, n, psum, pmax, blocks);
        reduce_sum_max(psum, pmax, blocks, &sum, &mx, 1);
    }
    fprintf(stderr, "reduce %d floats with %d blocks: %.3f ms\n", n, blocks, (omp_get_wtime() - t0) * 1e3);

    double host_sum = 0.0;
    for (i = 0; i < n; i++)
        host_sum += x[i];

    printf("block_reduce n=%d blocks=%d threads=%d\n", n, blocks, THREADS);
    printf("partial[0]: sum = %.6f max = %.6f\n", psum[0], pmax[0]);
    printf("partial[%d]: sum = %.6f max = %.6f\n", blocks - 1,
           psum[blocks - 1], pmax[blocks - 1]);
    printf("sum = %.6f\n", sum);
    printf("max = %.6f\n", mx);
    printf("mean = %.6f\n", sum / (float)n);
    printf("host double sum = %.6f\n", host_sum);

    free(x);
    free(psum);
    free(pmax);
    return 0;
}
