/*
 * OpenMP version of examples/cuda/prefix_scan.cu (for benchmarks/cpuify_vs_openmp.py): the same segmented
 * scan -- per-segment inclusive scans (segments split between the OpenMP threads), a scan of the segment
 * totals, offsets added back (parallel over segments).  Integer data, exact.
 * Usage: prefix_scan [n [repeat]]; the scan is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define THREADS 256
#define SEG (2 * THREADS)

int main(int argc, char **argv)
{
    int n = 200000, repeat = 1;
    int i, s, r;
    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        repeat = atoi(argv[2]);
    if (n <= 0 || n > SEG * SEG || repeat <= 0) {
        fprintf(stderr, "usage: %s [n [repeat]], 0 < n <= %d\n", argv[0], SEG * SEG);
        return 1;
    }
    int segs = (n + SEG - 1) / SEG;

    int *in = (int *)malloc((size_t)n * sizeof(int));
    int *out = (int *)malloc((size_t)n * sizeof(int));
    int *sums = (int *)malloc(segs * sizeof(int));
    if (!in || !out || !sums) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    unsigned int state = 7u;
    for (i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        in[i] = (int)((state >> 16) % 100u) - 49;
    }

    double t0 = omp_get_wtime();
    for (r = 0; r < repeat; r++) {
    /* per-segment inclusive scans and segment totals */
#pragma omp parallel for private(i)
    for (s = 0; s < segs; s++) {
        int acc = 0;
        for (i = s * SEG; i < (s + 1) * SEG; i++) {
            acc += i < n ? in[i] : 0;
            if (i < n)
                out[i] = acc;
        }
        sums[s] = acc;
    }
    /* inclusive scan of the totals, then offsets */
    for (s = 1; s < segs; s++)
        sums[s] += sums[s - 1];
#pragma omp parallel for private(i)
    for (s = 1; s < segs; s++)
        for (i = s * SEG; i < (s + 1) * SEG && i < n; i++)
            out[i] += sums[s - 1];
    }
    fprintf(stderr, "scan of %d ints in %d segments: %.3f ms\n", n, segs, (omp_get_wtime() - t0) * 1e3);

    int running = 0, mismatches = 0, first_bad = -1;
    for (i = 0; i < n; i++) {
        running += in[i];
        if (out[i] != running) {
            if (first_bad < 0)
                first_bad = i;
            mismatches++;
        }
    }
    int lo = 0, hi = 0;
    long long total = 0;
    unsigned int hash = 0u;
    for (i = 0; i < n; i++) {
        if (out[i] < out[lo])
            lo = i;
        if (out[i] > out[hi])
            hi = i;
        total += out[i];
        hash = hash * 31u + (unsigned int)out[i];
    }

    printf("prefix_scan n=%d segments=%d\n", n, segs);
    printf("out[0] = %d\n", out[0]);
    printf("out[%d] = %d\n", SEG - 1 < n ? SEG - 1 : n - 1, out[SEG - 1 < n ? SEG - 1 : n - 1]);
    printf("out[%d] = %d\n", n / 2, out[n / 2]);
    printf("out[%d] = %d\n", n - 1, out[n - 1]);
    printf("min prefix %d at %d, max prefix %d at %d\n", out[lo], lo, out[hi], hi);
    printf("sum of prefixes = %lld\n", total);
    printf("hash = %08x\n", hash);
    printf("mismatches = %d (first %d)\n", mismatches, first_bad);

    free(in);
    free(out);
    free(sums);
    return 0;
}
