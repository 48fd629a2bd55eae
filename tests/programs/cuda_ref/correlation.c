/*
 * Sequential C reference for examples/cuda/correlation.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N_OBS 400
#define M_VARS 160
#define EPS 0.005

int main(void)
{
    const int n = N_OBS, m = M_VARS;
    const double float_n = (double)n;
    int i, j, j1, j2, a, b;

    double *data = (double *)malloc((size_t)n * m * sizeof(double));
    double *mean = (double *)malloc(m * sizeof(double));
    double *stddev = (double *)malloc(m * sizeof(double));
    double *corr = (double *)malloc((size_t)m * m * sizeof(double));

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            if (j == 7)
                data[i * m + j] = 2.5;
            else
                data[i * m + j] = (double)((i * (j + 3)) % 37) / 37.0
                                  + 0.1 * (double)(i % 5) * (double)(j % 4)
                                  + 0.01 * (double)j;
        }

    /* column means */
    for (j = 0; j < m; j++) {
        double s = 0.0;
        for (i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / float_n;
    }
    /* column standard deviations */
    for (j = 0; j < m; j++) {
        double s = 0.0;
        for (i = 0; i < n; i++) {
            double d = data[i * m + j] - mean[j];
            s += d * d;
        }
        s = s / float_n;
        s = sqrt(s);
        stddev[j] = (s <= EPS) ? 1.0 : s;
    }
    /* center and scale */
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt(float_n) * stddev[j]);
    /* symmetric correlation matrix */
    for (j1 = 0; j1 < m; j1++) {
        corr[j1 * m + j1] = 1.0;
        for (j2 = j1 + 1; j2 < m; j2++) {
            double s = 0.0;
            for (i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            corr[j1 * m + j2] = s;
            corr[j2 * m + j1] = s;
        }
    }

    double total = 0.0, trace = 0.0, best = 0.0;
    int best_a = 0, best_b = 0;
    for (a = 0; a < m; a++) {
        trace += corr[a * m + a];
        for (b = 0; b < m; b++) {
            double v = corr[a * m + b];
            total += v;
            if (a != b && fabs(v) > best) {
                best = fabs(v);
                best_a = a;
                best_b = b;
            }
        }
    }

    printf("correlation n=%d m=%d\n", n, m);
    for (j = 0; j < m; j += 40)
        printf("var %3d: mean %.6f std %.6f\n", j, mean[j], stddev[j]);
    printf("var   7: mean %.6f std %.6f\n", mean[7], stddev[7]);
    printf("corr[0][1] = %.6f\n", corr[1]);
    printf("corr[5][100] = %.6f\n", corr[5 * m + 100]);
    printf("corr[%d][%d] = %.6f\n", m - 2, m - 1, corr[(m - 2) * m + m - 1]);
    printf("max |corr| off-diagonal %.6f at (%d,%d)\n", best, best_a, best_b);
    printf("trace = %.4f\n", trace);
    printf("sum = %.6f\n", total);

    free(data);
    free(mean);
    free(stddev);
    free(corr);
    return 0;
}
