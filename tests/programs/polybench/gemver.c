/* large: -DN=6000 */
/*
 * gemver.c -- rank-2 update followed by two matrix-vector products
 *
 *     A := A + u1 * v1^T + u2 * v2^T
 *     x := x + beta * A^T * y + z
 *     w := w + alpha * A * x
 *
 * All vectors have length N, A is N x N.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 40
#endif

static void init_arrays(int n, double A[n][n],
                        double u1[n], double v1[n], double u2[n], double v2[n],
                        double w[n], double x[n], double y[n], double z[n])
{
  int i, j;
  double fn = (double)n;

  for (i = 0; i < n; i++) {
    u1[i] = (double)(i % 7) / 7.0;
    v1[i] = (double)((i * 3 + 1) % n) / fn;
    u2[i] = (double)((i + 2) % 5) / 10.0;
    v2[i] = (double)(n - i) / (2.0 * fn);
    w[i] = 0.0;
    x[i] = 0.0;
    y[i] = (double)((i * i) % 11) / 11.0;
    z[i] = (double)(i % 13) / 26.0;
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 3) % n) / fn;
  }
}

static void kernel_gemver(int n, double alpha, double beta, double A[n][n],
                          double u1[n], double v1[n], double u2[n], double v2[n],
                          double w[n], double x[n], double y[n], double z[n])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];

  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

static double print_vector(int n, double w[n])
{
  int i;
  double s = 0.0;

  for (i = 0; i < n; i++) {
    fprintf(stderr, "%0.2lf ", w[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    s += w[i];
  }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  int n = N;
  double alpha = 0.5 / N;
  double beta = 2.0 / N;
  double checksum;
  double (*A)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*u1)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*v1)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*u2)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*v2)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*w)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*x)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*y)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*z)[N] = (double(*)[N])malloc(sizeof(double) * N);

  init_arrays(n, *A, *u1, *v1, *u2, *v2, *w, *x, *y, *z);
  kernel_gemver(n, alpha, beta, *A, *u1, *v1, *u2, *v2, *w, *x, *y, *z);

  checksum = print_vector(n, *w);
  printf("%.6e\n", checksum);

  free(A);
  free(u1);
  free(v1);
  free(u2);
  free(v2);
  free(w);
  free(x);
  free(y);
  free(z);
  return 0;
}
