/* large: -DN=9000 */
/*
 * trisolv.c -- forward substitution for a lower triangular system L x = b
 *
 * Only the lower triangle of L (including the diagonal) is referenced.
 * The diagonal dominates the off-diagonal row sums, so x stays bounded.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 40
#endif

static void init_arrays(int n, double L[n][n], double x[n], double b[n])
{
  int i, j;

  for (i = 0; i < n; i++) {
    x[i] = -1.0;
    b[i] = (double)(i % 9) - 4.0;
    for (j = 0; j < n; j++) {
      if (j < i)
        L[i][j] = (double)((i * j + 1) % n) / ((double)n * n);
      else if (j == i)
        L[i][j] = 2.0 + (double)(i % 3);
      else
        L[i][j] = 0.0;
    }
  }
}

static void kernel_trisolv(int n, double L[n][n], double x[n], double b[n])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(void)
{
  int i;
  double checksum = 0.0;
  double (*L)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*x)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*b)[N] = (double(*)[N])malloc(sizeof(double) * N);

  init_arrays(N, *L, *x, *b);
  kernel_trisolv(N, *L, *x, *b);

  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", (*x)[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += (*x)[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(L);
  free(x);
  free(b);
  return 0;
}
