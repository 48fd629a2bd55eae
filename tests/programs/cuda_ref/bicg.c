/*
 * Sequential C reference for examples/cuda/bicg.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

#define NR 1200
#define NC 1000

int main(void)
{
    int nr = NR, nc = NC;
    int i, j;
    double *A = (double *)malloc((size_t)nr * nc * sizeof(double));
    double *p = (double *)malloc(nc * sizeof(double));
    double *r = (double *)malloc(nr * sizeof(double));
    double *q = (double *)malloc(nr * sizeof(double));
    double *s = (double *)malloc(nc * sizeof(double));

    for (j = 0; j < nc; j++)
        p[j] = (double)(j % 11) / 11.0;
    for (i = 0; i < nr; i++) {
        r[i] = 0.5 + (double)(i % 9) / 9.0;
        for (j = 0; j < nc; j++)
            A[i * nc + j] = (double)((i * (j + 1)) % nr) / (double)nr;
    }

    for (i = 0; i < nr; i++) {
        double acc = 0.0;
        for (j = 0; j < nc; j++)
            acc += A[i * nc + j] * p[j];
        q[i] = acc;
    }
    for (j = 0; j < nc; j++) {
        double acc = 0.0;
        for (i = 0; i < nr; i++)
            acc += r[i] * A[i * nc + j];
        s[j] = acc;
    }

    double q_sum = 0.0, s_sum = 0.0, q_max = q[0], s_max = s[0];
    int q_arg = 0, s_arg = 0;
    for (i = 0; i < nr; i++) {
        q_sum += q[i];
        if (q[i] > q_max) { q_max = q[i]; q_arg = i; }
    }
    for (j = 0; j < nc; j++) {
        s_sum += s[j];
        if (s[j] > s_max) { s_max = s[j]; s_arg = j; }
    }

    printf("bicg %d x %d\n", nr, nc);
    printf("q: sum %.6f max %.6f at %d\n", q_sum, q_max, q_arg);
    printf("s: sum %.6f max %.6f at %d\n", s_sum, s_max, s_arg);
    printf("q[1] %.6f q[%d] %.6f\n", q[1], nr - 1, q[nr - 1]);
    printf("s[1] %.6f s[%d] %.6f\n", s[1], nc - 1, s[nc - 1]);

    free(A);
    free(p);
    free(r);
    free(q);
    free(s);
    return 0;
}
