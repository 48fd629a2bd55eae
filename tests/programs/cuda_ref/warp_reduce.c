/*
 * Sequential C reference for examples/cuda/warp_reduce.cu: the same two
 * passes (per-thread grid-stride partials of each block, combined per block;
 * then the per-block partials combined by one block of threads), with plain
 * loops in place of the warp shuffles and the ballot.  The data are
 * multiples of 1/16 with small partial sums, so every float addition is
 * exact and the order of the additions does not matter.
 */
#include <stdio.h>
#include <stdlib.h>

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

/* Pass 1: block b's threads walk x with a stride of grid * THREADS. */
static void block_partials(const float *x, int n, int grid,
                           float *part_sum, float *part_max, unsigned int *part_count)
{
    int stride = grid * THREADS;
    int b, t, i;
    for (b = 0; b < grid; b++) {
        float sum = 0.0f, mx = NEG_BIG;
        unsigned int count = 0;
        for (t = 0; t < THREADS; t++)
            for (i = b * THREADS + t; i < n; i += stride) {
                sum += x[i];
                mx = x[i] > mx ? x[i] : mx;
                count += x[i] > THRESHOLD;
            }
        part_sum[b] = sum;
        part_max[b] = mx;
        part_count[b] = count;
    }
}

/* Pass 2: one block combines the `parts` partials. */
static void combine_partials(const float *part_sum, const float *part_max,
                             const unsigned int *part_count, int parts,
                             float *total_sum, float *total_max, unsigned int *total_count)
{
    float sum = 0.0f, mx = NEG_BIG;
    unsigned int count = 0;
    int p;
    for (p = 0; p < parts; p++) {
        sum += part_sum[p];
        mx = part_max[p] > mx ? part_max[p] : mx;
        count += part_count[p];
    }
    *total_sum = sum;
    *total_max = mx;
    *total_count = count;
}

int main(int argc, char **argv)
{
    int n = 1000003;
    int i;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
        return 1;
    }
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;

    float *x = (float *)malloc((size_t)n * sizeof(float));
    float *psum = (float *)malloc(blocks * sizeof(float));
    float *pmax = (float *)malloc(blocks * sizeof(float));
    unsigned int *pcount = (unsigned int *)malloc(blocks * sizeof(unsigned int));
    if (!x || !psum || !pmax || !pcount) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        x[i] = next_value();
    x[n / 3] = 9.75f;

    float sum, mx;
    unsigned int count;
    block_partials(x, n, blocks, psum, pmax, pcount);
    combine_partials(psum, pmax, pcount, blocks, &sum, &mx, &count);

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
    free(psum);
    free(pmax);
    free(pcount);
    return 0;
}
