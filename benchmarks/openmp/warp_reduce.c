/*
 * OpenMP version of examples/cuda/warp_reduce.cu (for benchmarks/cpuify_vs_openmp.py): the sum, maximum and
 * count of elements above the threshold in one pass over the array, `#pragma omp parallel for` with
 * reduction clauses.  The data are multiples of 1/16 with small partial sums, so the float additions are
 * exact in any order and the output is identical to the CUDA program's.
 * Usage: warp_reduce [n [repeat]]; the `repeat` passes are timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define THREADS 256
#define WARP 32
#define WARPS (THREADS / WARP)
#define MAX_BLOCKS 512
#define NEG_BIG (-3.0e38f)
#define THRESHOLD 1.5f

static unsigned int seed = 7u;

static float next_value(void)
{
    seed = seed * 1664525u + 1013904223u;
    int k = (int)((seed >> 10) & 63u) - 32 + (int)((seed >> 9) & 1u);
    return (float)k / 16.0f;
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
    int blocks = (n + THREADS - 1) / THREADS;  /* the CUDA grid, printed for the same output */
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;

    float *x = (float *)malloc((size_t)n * sizeof(float));
    if (!x) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        x[i] = next_value();
    x[n / 3] = 9.75f;

    float sum = 0.0f, mx = NEG_BIG;
    unsigned int count = 0;
    double t0 = omp_get_wtime();
    for (r = 0; r < repeat; r++) {
        float s = 0.0f, m = NEG_BIG;
        unsigned int c = 0;
#pragma omp parallel for reduction(+ : s, c) reduction(max : m)
        for (i = 0; i < n; i++) {
            float v = x[i];
            s += v;
            m = v > m ? v : m;
            c += v > THRESHOLD;
        }
        sum = s;
        mx = m;
        count = c;
    }
    fprintf(stderr, "warp reduce %d floats with %d blocks: %.3f ms\n", n, blocks, (omp_get_wtime() - t0) * 1e3);

    double host_sum = 0.0;
    for (i = 0; i < n; i++)
        host_sum += x[i];

    printf("warp_reduce n=%d blocks=%d threads=%d warps/block=%d\n", n, blocks, THREADS, WARPS);
    printf("sum = %.4f\n", sum);
    printf("max = %.4f\n", mx);
    printf("count > %.2f = %u\n", THRESHOLD, count);
    printf("mean = %.6f\n", sum / (float)n);
    printf("host double sum = %.4f (%s)\n", host_sum,
           (double)sum == host_sum ? "exact" : "differs");

    free(x);
    return 0;
}
