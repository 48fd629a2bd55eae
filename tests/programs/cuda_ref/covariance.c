/*
 * Sequential C reference for examples/cuda/covariance.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

#define M_VARS 120

int main(int argc, char **argv)
{
    int n = 300;
    const int m = M_VARS;
    int i, j, j1, j2, k;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 2) {
        fprintf(stderr, "usage: %s [n_obs >= 2]\n", argv[0]);
        return 1;
    }

    float *data = (float *)malloc((size_t)n * m * sizeof(float));
    float *mean = (float *)malloc(m * sizeof(float));
    float *cov = (float *)malloc((size_t)m * m * sizeof(float));

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i * m + j] = (float)((i * 5 + j * j) % 29) * 0.25f
                              + (float)(i % 10) * (float)(j % 6) * 0.05f;

    for (j = 0; j < m; j++) {
        float s = 0.0f;
        for (i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / (float)n;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i * m + j] -= mean[j];
    for (j1 = 0; j1 < m; j1++)
        for (j2 = j1; j2 < m; j2++) {
            float s = 0.0f;
            for (i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            s = s / (float)(n - 1);
            cov[j1 * m + j2] = s;
            cov[j2 * m + j1] = s;
        }

    double mean_sum = 0.0, trace = 0.0, total = 0.0;
    for (j = 0; j < m; j++) {
        mean_sum += mean[j];
        trace += cov[j * m + j];
    }
    for (k = 0; k < m * m; k++)
        total += cov[k];

    printf("covariance n=%d m=%d\n", n, m);
    printf("mean[0] = %.5f mean[%d] = %.5f sum(mean) = %.4f\n",
           mean[0], m - 1, mean[m - 1], mean_sum);
    printf("cov[0][0] = %.5f\n", cov[0]);
    printf("cov[3][17] = %.5f cov[17][3] = %.5f\n", cov[3 * m + 17], cov[17 * m + 3]);
    printf("cov[%d][%d] = %.5f\n", m - 1, m - 1, cov[m * m - 1]);
    printf("trace = %.4f\n", trace);
    printf("sum = %.4f\n", total);

    free(data);
    free(mean);
    free(cov);
    return 0;
}
