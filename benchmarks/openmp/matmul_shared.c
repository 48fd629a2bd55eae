/*
 * OpenMP version of examples/cuda/matmul_shared.cu (for benchmarks/cpuify_vs_openmp.py): rows of C split
 * between the threads, i-k-j loop order so the inner loop is stride-1 and vectorizes; every C element is still
 * accumulated in k order from +0.0f, so the floats equal the CUDA program's.  The product is timed and the
 * time printed on stderr in the CUDA program's format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define TILE 16

static unsigned int lcg_state = 12345u;

static float lcg_uniform(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)((int)(lcg_state >> 16) - 32768) / 32768.0f;
}

int main(int argc, char **argv)
{
    int M = 231, K = 190, N = 205;
    int i, j, k;
    if (argc > 3) {
        M = atoi(argv[1]);
        K = atoi(argv[2]);
        N = atoi(argv[3]);
    }
    if (M <= 0 || K <= 0 || N <= 0) {
        fprintf(stderr, "usage: %s [M K N]\n", argv[0]);
        return 1;
    }

    float *A = (float *)malloc((size_t)M * K * sizeof(float));
    float *B = (float *)malloc((size_t)K * N * sizeof(float));
    float *C = (float *)malloc((size_t)M * N * sizeof(float));
    if (!A || !B || !C) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (i = 0; i < M * K; i++)
        A[i] = lcg_uniform();
    for (i = 0; i < K * N; i++)
        B[i] = lcg_uniform();

    double t0 = omp_get_wtime();
#pragma omp parallel for private(j, k)
    for (i = 0; i < M; i++) {
        float *c = C + (size_t)i * N;
        for (j = 0; j < N; j++)
            c[j] = 0.0f;
        for (k = 0; k < K; k++) {
            float a = A[(size_t)i * K + k];
            const float *b = B + (size_t)k * N;
            for (j = 0; j < N; j++)
                c[j] += a * b[j];
        }
    }
    double t1 = omp_get_wtime();
    fprintf(stderr, "matmul_tiled %dx%dx%d, grid %ux%u: %.3f ms\n", M, K, N, (N + TILE - 1) / TILE,
            (M + TILE - 1) / TILE, (t1 - t0) * 1e3);

    double total = 0.0, abs_total = 0.0;
    for (i = 0; i < M * N; i++) {
        total += C[i];
        abs_total += C[i] < 0.0f ? -C[i] : C[i];
    }
    printf("matmul_shared M=%d K=%d N=%d tile=%d\n", M, K, N, TILE);
    printf("C[0][0] = %.6f\n", C[0]);
    printf("C[%d][%d] = %.6f\n", M / 2, N / 2, C[(M / 2) * N + N / 2]);
    printf("C[%d][%d] = %.6f\n", M - 1, N - 1, C[(M - 1) * N + N - 1]);
    for (i = 0; i < M; i += M / 4 > 0 ? M / 4 : 1) {
        double rs = 0.0;
        for (j = 0; j < N; j++)
            rs += C[i * N + j];
        printf("row %d sum = %.6f\n", i, rs);
    }
    printf("sum = %.6f\n", total);
    printf("sum |C| = %.6f\n", abs_total);

    free(A);
    free(B);
    free(C);
    return 0;
}
