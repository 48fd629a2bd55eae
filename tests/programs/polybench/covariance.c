/* large: -DN=1100 -DM=800 */
/*
 * covariance.c -- sample covariance matrix of M variables observed N times
 *
 *     mean[j] = (1/N) sum_i data[i][j]
 *     data[i][j] -= mean[j]
 *     cov[i][j] = (1/(N-1)) sum_k data[k][i] * data[k][j]   (symmetric)
 *
 * data (N x M) and cov (M x M) are 1-D heap blocks with linearised
 * indexing, e.g. data[k*m+i].
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 32
#endif
#ifndef M
#define M 28
#endif

static void init_data(int n, int m, double *data)
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i * m + j] = (double)((i * i + 5 * j + i * j) % 23) / 23.0 +
                        (double)(j % 4) * 0.25;
}

static void kernel_covariance(int n, int m, double *data, double *cov,
                              double *mean)
{
  int i, j, k;

#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] = mean[j] / n;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i * m + j] -= mean[j];
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i * m + j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i * m + j] += data[k * m + i] * data[k * m + j];
      cov[i * m + j] = cov[i * m + j] / (n - 1.0);
      cov[j * m + i] = cov[i * m + j];
    }
#pragma endscop
}

int main(void)
{
  int n = N;
  int m = M;
  int i, j;
  double checksum = 0.0;
  double *data = (double *)malloc((long)n * m * sizeof(double));
  double *cov = (double *)malloc((long)m * m * sizeof(double));
  double *mean = (double *)malloc(m * sizeof(double));

  init_data(n, m, data);
  kernel_covariance(n, m, data, cov, mean);

  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++) {
      fprintf(stderr, "%0.2lf ", 100.0 * cov[i * m + j]);
      if ((i * m + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += cov[i * m + j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(data);
  free(cov);
  free(mean);
  return 0;
}
