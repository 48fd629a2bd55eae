/* large: -DM=7000 -DN=8000 */
/*
 * atax.c -- matrix transpose times matrix times vector
 *
 *     y := A^T * (A * x)
 *
 * A is M x N and is kept in a 1-D heap block addressed as A[i*n+j];
 * the temporary A*x has length M.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 38
#endif
#ifndef N
#define N 42
#endif

static void init_arrays(int m, int n, double *A, double *x)
{
  int i, j;

  for (j = 0; j < n; j++)
    x[j] = 1.0 + (double)j / n;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      A[i * n + j] = (double)((i + j) % n) / (5.0 * m);
}

static void kernel_atax(int m, int n, double *A, double *x, double *y,
                        double *tmp)
{
  int i, j;

#pragma scop
  for (j = 0; j < n; j++)
    y[j] = 0.0;
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i * n + j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i * n + j] * tmp[i];
  }
#pragma endscop
}

int main(void)
{
  int m = M;
  int n = N;
  int j;
  double checksum = 0.0;
  double *A = (double *)malloc((long)m * n * sizeof(double));
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  double *tmp = (double *)malloc(m * sizeof(double));

  init_arrays(m, n, A, x);
  kernel_atax(m, n, A, x, y, tmp);

  for (j = 0; j < n; j++) {
    fprintf(stderr, "%0.2lf ", y[j]);
    if (j % 20 == 19)
      fprintf(stderr, "\n");
    checksum += y[j];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(A);
  free(x);
  free(y);
  free(tmp);
  return 0;
}
