/* large: -DN=1600 */
/*
 * cholesky.c -- in-place Cholesky factorisation A = L * L^T
 *
 * Column-oriented (left-looking) variant: column j of L is computed from
 * the columns to its left.  Only the lower triangle of A is read and
 * written; the lower triangle including the diagonal is printed.
 * The input is symmetric and strictly diagonally dominant, hence SPD.
 * The matrix storage comes from posix_memalign.
 * Original test program written in the style of PolyBench/C.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 32
#endif

static void init_array(int n, double A[n][n])
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      if (i == j)
        A[i][j] = 2.0 * n;
      else
        A[i][j] = (double)((i + 3 * j + 1) % n) / n + 0.5;
      A[j][i] = A[i][j];
    }
}

static void kernel_cholesky(int n, double A[n][n])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < n; j++) {
    for (k = 0; k < j; k++)
      A[j][j] -= A[j][k] * A[j][k];
    A[j][j] = sqrt(A[j][j]);
    for (i = j + 1; i < n; i++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] = A[i][j] / A[j][j];
    }
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  int count = 0;
  double checksum = 0.0;
  void *block = NULL;
  double (*A)[N][N];

  if (posix_memalign(&block, 32, sizeof(double) * N * N) != 0) {
    fprintf(stderr, "allocation failed\n");
    return 1;
  }
  A = (double(*)[N][N])block;

  init_array(N, *A);
  kernel_cholesky(N, *A);

  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++) {
      fprintf(stderr, "%0.2lf ", (*A)[i][j]);
      count++;
      if (count % 20 == 0)
        fprintf(stderr, "\n");
      checksum += (*A)[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(block);
  return 0;
}
