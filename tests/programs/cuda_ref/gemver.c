/*
 * Sequential C reference for examples/cuda/gemver.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = 500;
    int i, j;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 2) {
        fprintf(stderr, "usage: %s [n >= 2]\n", argv[0]);
        return 1;
    }
    const double alpha = 1.25;
    const double beta = 0.75;

    double *A = (double *)malloc((size_t)n * n * sizeof(double));
    double *u1 = (double *)malloc(n * sizeof(double));
    double *v1 = (double *)malloc(n * sizeof(double));
    double *u2 = (double *)malloc(n * sizeof(double));
    double *v2 = (double *)malloc(n * sizeof(double));
    double *x = (double *)malloc(n * sizeof(double));
    double *y = (double *)malloc(n * sizeof(double));
    double *z = (double *)malloc(n * sizeof(double));
    double *w = (double *)malloc(n * sizeof(double));

    double fn = (double)n;
    for (i = 0; i < n; i++) {
        u1[i] = (double)i / fn;
        u2[i] = (double)(i + 1) / fn / 2.0;
        v1[i] = (double)(i + 1) / fn / 4.0;
        v2[i] = (double)(i + 1) / fn / 6.0;
        y[i] = (double)(i + 1) / fn / 8.0;
        z[i] = (double)(i + 1) / fn / 9.0;
        x[i] = 0.0;
        w[i] = 0.0;
        for (j = 0; j < n; j++)
            A[i * n + j] = (double)((i * j) % n) / fn;
    }

    /* A = A + u1 v1^T + u2 v2^T */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
    /* x = x + beta * A^T y */
    for (i = 0; i < n; i++) {
        double acc = x[i];
        for (j = 0; j < n; j++)
            acc = acc + beta * A[j * n + i] * y[j];
        x[i] = acc;
    }
    /* x = x + z */
    for (i = 0; i < n; i++)
        x[i] = x[i] + z[i];
    /* w = w + alpha * A x */
    for (i = 0; i < n; i++) {
        double acc = w[i];
        for (j = 0; j < n; j++)
            acc = acc + alpha * A[i * n + j] * x[j];
        w[i] = acc;
    }

    double a_sum = 0.0, x_sum = 0.0, w_sum = 0.0;
    for (i = 0; i < n * n; i++)
        a_sum += A[i];
    for (i = 0; i < n; i++) {
        x_sum += x[i];
        w_sum += w[i];
    }

    printf("gemver n=%d alpha=%.2f beta=%.2f\n", n, alpha, beta);
    printf("sum(A) = %.6f\n", a_sum);
    printf("sum(x) = %.6f\n", x_sum);
    printf("sum(w) = %.6f\n", w_sum);
    printf("x[0] = %.6f  x[n-1] = %.6f\n", x[0], x[n - 1]);
    printf("w[0] = %.6f  w[n-1] = %.6f\n", w[0], w[n - 1]);

    free(A);
    free(u1);
    free(v1);
    free(u2);
    free(v2);
    free(x);
    free(y);
    free(z);
    free(w);
    return 0;
}
