/* large: -DN=6000 */
/*
 * gesummv.c -- sum of two scaled matrix-vector products
 *
 *     y := alpha * A * x + beta * B * x
 *
 * A and B are N x N.  All arrays are plain 1-D heap blocks and the
 * matrices are addressed with linearised indices A[i*n+j].
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 36
#endif

static void init_arrays(int n, double *A, double *B, double *x)
{
  int i, j;

  for (i = 0; i < n; i++) {
    x[i] = (double)(i % n) / n;
    for (j = 0; j < n; j++) {
      A[i * n + j] = (double)((i * j + 1) % n) / n;
      B[i * n + j] = (double)((i * (j + 2) + 3) % n) / n - 0.25;
    }
  }
}

static void kernel_gesummv(int n, double alpha, double beta,
                           double *A, double *B,
                           double *tmp, double *x, double *y)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < n; j++) {
      tmp[i] = A[i * n + j] * x[j] + tmp[i];
      y[i] = B[i * n + j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop
}

int main(void)
{
  int n = N;
  int i;
  double alpha = 1.5;
  double beta = 1.25;
  double sum = 0.0;
  double *A = (double *)malloc((long)n * n * sizeof(double));
  double *B = (double *)malloc((long)n * n * sizeof(double));
  double *tmp = (double *)malloc(n * sizeof(double));
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));

  init_arrays(n, A, B, x);
  kernel_gesummv(n, alpha, beta, A, B, tmp, x, y);

  for (i = 0; i < n; i++) {
    fprintf(stderr, "%0.2lf ", y[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    sum += y[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", sum);

  free(A);
  free(B);
  free(tmp);
  free(x);
  free(y);
  return 0;
}
