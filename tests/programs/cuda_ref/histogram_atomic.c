/*
 * Sequential C reference for examples/cuda/histogram_atomic.cu: the same
 * byte stream counted with one loop (integer counts, exact).
 */
#include <stdio.h>
#include <stdlib.h>
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
    unsigned char *data = (unsigned char *)malloc(n);
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
    for (i = 0; i < n; i++)
        hist[data[i]]++;

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
