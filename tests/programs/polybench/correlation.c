/* large: -DN=1200 -DM=1000 */
/*
 * correlation.c -- Pearson correlation matrix of M variables observed
 * N times
 *
 *     mean[j], stddev[j] per column; data is standardised in place;
 *     corr[i][j] = sum_k data[k][i] * data[k][j]      (symmetric, unit diag)
 *
 * Columns with (nearly) zero spread get stddev 1 so nothing divides by 0;
 * the input deliberately contains such constant columns.
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

static void init_data(int n, int m, double data[n][m])
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] = (j % 7 == 3) ? 0.5
                                : (double)((i * (j + 1) + j) % 17) / 17.0 +
                                      (double)i / n;
}

static void kernel_correlation(int n, int m, double data[n][m],
                               double corr[m][m], double mean[m],
                               double stddev[m])
{
  int i, j, k;
  double fn = (double)n;

#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= fn;
  }
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] = sqrt(stddev[j] / fn);
    stddev[j] = stddev[j] < 1.0e-3 ? 1.0 : stddev[j];
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] = (data[i][j] - mean[j]) / (sqrt(fn) * stddev[j]);
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;
  double (*data)[N][M] = (double(*)[N][M])malloc(sizeof(double) * N * M);
  double (*corr)[M][M] = (double(*)[M][M])malloc(sizeof(double) * M * M);
  double (*mean)[M] = (double(*)[M])malloc(sizeof(double) * M);
  double (*stddev)[M] = (double(*)[M])malloc(sizeof(double) * M);

  init_data(N, M, *data);
  kernel_correlation(N, M, *data, *corr, *mean, *stddev);

  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++) {
      fprintf(stderr, "%0.2lf ", (*corr)[i][j]);
      if ((i * M + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += (*corr)[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(data);
  free(corr);
  free(mean);
  free(stddev);
  return 0;
}
