/*
 * Sequential C reference for examples/cuda/dot_product.cu.
 * Prints exactly the same stdout as the CUDA program.  The per-thread
 * partial sums of the grid-stride loop are reproduced exactly: partial t
 * accumulates elements t, t + T, t + 2T, ... with T = 48 * 128.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define BLOCKS 48
#define THREADS 128

int main(int argc, char **argv)
{
    int n = 300000;
    int i, t;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
        return 1;
    }
    const int nthreads = BLOCKS * THREADS;

    float *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    double *dot_part = (double *)malloc(nthreads * sizeof(double));
    double *xx_part = (double *)malloc(nthreads * sizeof(double));
    double *yy_part = (double *)malloc(nthreads * sizeof(double));
    for (i = 0; i < n; i++) {
        x[i] = sinf(0.001f * (float)(i % 6283));
        y[i] = 0.5f * x[i] + (float)((i * 37) % 101) / 101.0f - 0.5f;
    }

    for (t = 0; t < nthreads; t++) {
        double d = 0.0, sx = 0.0, sy = 0.0;
        for (i = t; i < n; i += nthreads) {
            float xi = x[i];
            float yi = y[i];
            d += (double)(xi * yi);
            sx += (double)(xi * xi);
            sy += (double)(yi * yi);
        }
        dot_part[t] = d;
        xx_part[t] = sx;
        yy_part[t] = sy;
    }

    double dot = 0.0, xx = 0.0, yy = 0.0;
    for (t = 0; t < nthreads; t++) {
        dot += dot_part[t];
        xx += xx_part[t];
        yy += yy_part[t];
    }
    double norm_x = sqrt(xx);
    double norm_y = sqrt(yy);

    printf("dot_product n=%d partials=%d\n", n, nthreads);
    printf("partial[0] = %.6f partial[%d] = %.6f\n",
           dot_part[0], nthreads - 1, dot_part[nthreads - 1]);
    printf("x.y   = %.6f\n", dot);
    printf("|x|   = %.6f\n", norm_x);
    printf("|y|   = %.6f\n", norm_y);
    printf("cos   = %.8f\n", dot / (norm_x * norm_y));

    free(x);
    free(y);
    free(dot_part);
    free(xx_part);
    free(yy_part);
    return 0;
}
