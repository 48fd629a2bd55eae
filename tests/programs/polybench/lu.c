/* large: -DN=1500 */
/*
 * lu.c -- in-place LU factorisation without pivoting (right-looking,
 * k-i-j order).  On exit the strictly lower part of A holds L (unit
 * diagonal implied) and the upper part including the diagonal holds U.
 *
 * The input is made strictly diagonally dominant so no pivoting is needed.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 30
#endif

static void init_array(int n, double A[n][n])
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (i == j)
        A[i][j] = (double)n + 1.0;
      else
        A[i][j] = (double)((i * j + i + 1) % n) / n;
    }
}

static void kernel_lu(int n, double A[n][n])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < n; k++) {
    for (i = k + 1; i < n; i++)
      A[i][k] = A[i][k] / A[k][k];
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }
#pragma endscop
}

static double print_array(int n, double A[n][n])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      fprintf(stderr, "%0.2lf ", A[i][j]);
      if ((i * n + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += A[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double checksum;
  double (*A)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);

  init_array(N, *A);
  kernel_lu(N, *A);

  checksum = print_array(N, *A);
  printf("%.6e\n", checksum);

  free(A);
  return 0;
}
