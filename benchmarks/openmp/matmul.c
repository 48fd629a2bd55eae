/*
 * OpenMP version of examples/cuda/matmul.cu (for benchmarks/cpuify_vs_openmp.py): rows of C split between the
 * OpenMP threads, i-k-j loop order (stride-1 inner loop); every element is still accumulated in k order from
 * 0.0, so the doubles equal the CUDA program's.  The product is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void fill_matrices(double *A, double *B, int M, int K, int N)
{
    int i, j, k;
    for (i = 0; i < M; i++)
        for (k = 0; k < K; k++)
            A[i * K + k] = (double)((i * 3 + k * 5) % 17) / 17.0 - 0.5;
    for (k = 0; k < K; k++)
        for (j = 0; j < N; j++)
            B[k * N + j] = (double)((k * 7 + j * 2 + 1) % 23) / 11.0 - 1.0;
}

static void matmul(const double *A, const double *B, double *C,
                   int M, int K, int N)
{
    int row, col, k;
#pragma omp parallel for private(col, k)
    for (row = 0; row < M; row++) {
        double *c = C + (size_t)row * N;
        for (col = 0; col < N; col++)
            c[col] = 0.0;
        for (k = 0; k < K; k++) {
            double a = A[(size_t)row * K + k];
            const double *b = B + (size_t)k * N;
            for (col = 0; col < N; col++)
                c[col] += a * b[col];
        }
    }
}

int main(int argc, char **argv)
{
    int M = 200, K = 150, N = 170;
    int i, j;
    if (argc > 3) {
        M = atoi(argv[1]);
        K = atoi(argv[2]);
        N = atoi(argv[3]);
    }
    if (M <= 0 || K <= 0 || N <= 0) {
        fprintf(stderr, "usage: %s [M K N]\n", argv[0]);
        return 1;
    }

    double *A = (double *)malloc((size_t)M * K * sizeof(double));
    double *B = (double *)malloc((size_t)K * N * sizeof(double));
    double *C = (double *)malloc((size_t)M * N * sizeof(double));
    if (!A || !B || !C) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    fill_matrices(A, B, M, K, N);
    double t0 = omp_get_wtime();
    matmul(A, B, C, M, K, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    fprintf(stderr, "matmul %dx%dx%d: grid %ux%u, %.3f ms, %.2f GFLOP/s\n", M, K, N, (N + 15) / 16,
            (M + 15) / 16, ms, ms > 0.0 ? 2.0 * M * K * N / (ms * 1.0e6) : 0.0);

    double trace = 0.0;
    double total = 0.0;
    for (i = 0; i < M; i++) {
        double row_sum = 0.0;
        for (j = 0; j < N; j++)
            row_sum += C[i * N + j];
        total += row_sum;
        if (i < N)
            trace += C[i * N + i];
    }

    printf("matmul M=%d K=%d N=%d\n", M, K, N);
    printf("C[0][0] = %.6f\n", C[0]);
    printf("C[%d][%d] = %.6f\n", M / 2, N / 3, C[(M / 2) * N + N / 3]);
    printf("C[%d][%d] = %.6f\n", M - 1, N - 1, C[(M - 1) * N + (N - 1)]);
    printf("trace = %.6f\n", trace);
    printf("checksum = %.6f\n", total);

    free(A);
    free(B);
    free(C);
    return 0;
}
