/*
 * OpenMP version of examples/cuda/nw_wavefront.cu (for benchmarks/cpuify_vs_openmp.py), written the way
 * Rodinia's OpenMP nw is: the score matrix is filled by 16x16 blocks along block anti-diagonals, the blocks of
 * one anti-diagonal split between the OpenMP threads, each block swept row by row.  Integer data, exact.
 * Usage: nw_wavefront [blocks per side]; the fill is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define BS 16
#define ALPHA 20
#define GAP 4

/* one-letter code of residue k */
static char residue(int k)
{
    const char *letters = "ARNDCQEGHILKMFPSTWYV";
    return letters[k];
}

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static unsigned int rng = 99991u;

static int rand_below(int m)
{
    rng = rng * 1664525u + 1013904223u;
    return (int)((rng >> 16) % (unsigned int)m);
}

static void make_inputs(int *a, int *b, int *subst, int n)
{
    int x, y, i, j;
    for (x = 0; x < ALPHA; x++)
        for (y = 0; y < ALPHA; y++)
            subst[x * ALPHA + y] = x == y ? 4 + x % 3 : -1 - (x + y + x * y) % 4;
    for (i = 0; i < n; i++)
        a[i] = rand_below(ALPHA);
    j = 0;
    for (i = 0; i < n && j < n; i++) {
        int r = rand_below(100);
        if (r < 10) {
            b[j++] = rand_below(ALPHA);
        } else if (r < 14) {
        } else if (r < 18) {
            b[j++] = rand_below(ALPHA);
            if (j < n)
                b[j++] = a[i];
        } else {
            b[j++] = a[i];
        }
    }
    while (j < n)
        b[j++] = rand_below(ALPHA);
}

int main(int argc, char **argv)
{
    int nb = 24;
    int i, j, k;
    if (argc > 1)
        nb = atoi(argv[1]);
    if (nb <= 0 || nb > 512) {
        fprintf(stderr, "usage: %s [blocks per side, 1..512]\n", argv[0]);
        return 1;
    }
    int n = nb * BS;
    int ld = n + 1;

    int *a = (int *)malloc(n * sizeof(int));
    int *b = (int *)malloc(n * sizeof(int));
    int *sub = (int *)malloc(ALPHA * ALPHA * sizeof(int));
    int *score = (int *)malloc((size_t)ld * ld * sizeof(int));
    if (!a || !b || !sub || !score) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    make_inputs(a, b, sub, n);
    for (i = 0; i < ld * ld; i++)
        score[i] = 0;
    for (i = 0; i <= n; i++) {
        score[i * ld] = -i * GAP;
        score[i] = -i * GAP;
    }
    double t0 = omp_get_wtime();
    int diag;
    for (diag = 0; diag < 2 * nb - 1; diag++) {
        int first = diag < nb ? 0 : diag - nb + 1;
        int last = diag < nb ? diag : nb - 1;
        int bi;
#pragma omp parallel for private(i, j)
        for (bi = first; bi <= last; bi++) {
            int bj = diag - bi;
            for (i = bi * BS + 1; i <= (bi + 1) * BS; i++)
                for (j = bj * BS + 1; j <= (bj + 1) * BS; j++)
                    score[i * ld + j] = max3(score[(i - 1) * ld + j - 1] + sub[a[i - 1] * ALPHA + b[j - 1]],
                                             score[(i - 1) * ld + j] - GAP,
                                             score[i * ld + j - 1] - GAP);
        }
    }
    fprintf(stderr, "N=%d: %d launches, %.3f ms\n", n, 2 * nb - 1, (omp_get_wtime() - t0) * 1e3);

    long long checksum = 0;
    for (i = 0; i < ld * ld; i++)
        checksum += (long long)score[i] * (i % 7 + 1);

    char *line_a = (char *)malloc(2 * n + 1);
    char *line_b = (char *)malloc(2 * n + 1);
    int len = 0, matches = 0, mismatches = 0, gaps = 0;
    i = n;
    j = n;
    while (i > 0 || j > 0) {
        int here = score[i * ld + j];
        if (i > 0 && j > 0 &&
            here == score[(i - 1) * ld + j - 1] + sub[a[i - 1] * ALPHA + b[j - 1]]) {
            line_a[len] = residue(a[i - 1]);
            line_b[len] = residue(b[j - 1]);
            if (a[i - 1] == b[j - 1])
                matches++;
            else
                mismatches++;
            i--;
            j--;
        } else if (i > 0 && here == score[(i - 1) * ld + j] - GAP) {
            line_a[len] = residue(a[i - 1]);
            line_b[len] = '-';
            gaps++;
            i--;
        } else {
            line_a[len] = '-';
            line_b[len] = residue(b[j - 1]);
            gaps++;
            j--;
        }
        len++;
    }

    printf("nw_wavefront N=%d blocks=%dx%d gap=%d\n", n, nb, nb, GAP);
    printf("score[%d][%d] = %d\n", n / 2, n / 3, score[(n / 2) * ld + n / 3]);
    printf("score[%d][%d] = %d\n", BS, BS, score[BS * ld + BS]);
    printf("alignment score = %d\n", score[n * ld + n]);
    printf("checksum = %lld\n", checksum);
    printf("alignment length %d: %d matches, %d mismatches, %d gaps\n",
           len, matches, mismatches, gaps);
    int show = len < 60 ? len : 60;
    printf("A: ");
    for (k = 0; k < show; k++)
        putchar(line_a[len - 1 - k]);
    printf("\nB: ");
    for (k = 0; k < show; k++)
        putchar(line_b[len - 1 - k]);
    printf("\n");

    free(a);
    free(b);
    free(sub);
    free(score);
    free(line_a);
    free(line_b);
    return 0;
}
