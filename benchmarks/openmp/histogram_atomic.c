/*
 * OpenMP version of examples/cuda/histogram_atomic.cu (for benchmarks/cpuify_vs_openmp.py): the same
 * privatized histogram -- every OpenMP thread counts its share of the 32-bit words (four bytes each) into a
 * private 256-bin histogram, then adds it to the global one with atomic updates.  Integer counts, exact.
 * Usage: histogram_atomic [n_bytes]; the counting is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include <math.h>

#define BINS 256
#define THREADS 256
#define BLOCKS 48

int main(int argc, char **argv)
{
    int n = 3000001;
    int i, b, r, k;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n_bytes > 0]\n", argv[0]);
        return 1;
    }
    unsigned char *data = (unsigned char *)malloc(((size_t)n + 3) / 4 * 4);
    unsigned int hist[BINS];
    if (!data) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    unsigned int state = 1u;
    for (i = 0; i < n; i++) {
        state = state * 22695477u + 1u;
        unsigned int a = (state >> 24) & 0xffu;
        unsigned int c = (state >> 16) & 0xffu;
        data[i] = (unsigned char)((a * c) >> 8);
        if ((state >> 13) % 7u == 0u)
            data[i] = (unsigned char)('a' + (state >> 9) % 26u);
    }
    for (b = 0; b < BINS; b++)
        hist[b] = 0;
    double t0 = omp_get_wtime();
    {
        const unsigned int *words = (const unsigned int *)data;
        int nwords = n / 4;
#pragma omp parallel
        {
            unsigned int local[BINS];
            int w, k;
            for (k = 0; k < BINS; k++)
                local[k] = 0;
#pragma omp for nowait
            for (w = 0; w < nwords; w++) {
                unsigned int v = words[w];
                local[v & 0xffu]++;
                local[(v >> 8) & 0xffu]++;
                local[(v >> 16) & 0xffu]++;
                local[v >> 24]++;
            }
            for (k = nwords * 4; k < n; k++)
                if (omp_get_thread_num() == 0)
                    local[data[k]]++;
            for (k = 0; k < BINS; k++)
                if (local[k] != 0) {
#pragma omp atomic
                    hist[k] += local[k];
                }
        }
    }
    double ms = (omp_get_wtime() - t0) * 1e3;
    fprintf(stderr, "histogram of %d bytes: %.3f ms (%.1f MB/s)\n", n, ms, ms > 0.0 ? n / (ms * 1.0e3) : 0.0);

    long long total = 0, weighted = 0;
    int empty = 0;
    double entropy = 0.0;
    for (b = 0; b < BINS; b++) {
        total += hist[b];
        weighted += (long long)b * hist[b];
        if (hist[b] == 0)
            empty++;
        else {
            double p = (double)hist[b] / n;
            entropy -= p * log2(p);
        }
    }

    printf("histogram_atomic n=%d blocks=%d threads=%d\n", n, BLOCKS, THREADS);
    printf("total = %lld, empty bins = %d\n", total, empty);
    printf("sum of byte values = %lld\n", weighted);
    printf("entropy = %.4f bits/byte\n", entropy);
    int taken[BINS];
    for (b = 0; b < BINS; b++)
        taken[b] = 0;
    for (r = 0; r < 5; r++) {
        int best = -1;
        for (b = 0; b < BINS; b++)
            if (!taken[b] && (best < 0 || hist[b] > hist[best]))
                best = b;
        taken[best] = 1;
        printf("top %d: byte %3d count %u\n", r + 1, best, hist[best]);
    }
    for (b = 0; b < BINS; b += 32) {
        printf("bins %3d..%3d:", b, b + 7);
        for (k = b; k < b + 8; k++)
            printf(" %u", hist[k]);
        printf("\n");
    }
    free(data);
    return 0;
}
