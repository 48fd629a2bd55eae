/* large: -DN=1500 */
/*
 * ludcmp.c -- solve A x = b by LU decomposition followed by a forward and
 * a backward substitution
 *
 * The factorisation is the row-by-row (Doolittle, i-j-k) form: row i of
 * L and then row i of U are computed from the rows above.  No pivoting;
 * the input is strictly diagonally dominant.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 30
#endif

static void init_arrays(int n, double A[n][n], double b[n], double x[n],
                        double y[n])
{
  int i, j;

  for (i = 0; i < n; i++) {
    b[i] = (double)(i + 1) / n + 1.0;
    x[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < n; j++) {
      if (i == j)
        A[i][j] = 1.5 * n;
      else
        A[i][j] = (double)((2 * i + j * j + 1) % n) / n - 0.3;
    }
  }
}

static void kernel_ludcmp(int n, double A[n][n], double b[n], double x[n],
                          double y[n])
{
  int i, j, k;
  double w;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < n; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = n - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < n; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
#pragma endscop
}

int main(void)
{
  int i;
  double checksum = 0.0;
  double (*A)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*b)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*x)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*y)[N] = (double(*)[N])malloc(sizeof(double) * N);

  init_arrays(N, *A, *b, *x, *y);
  kernel_ludcmp(N, *A, *b, *x, *y);

  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", (*x)[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += (*x)[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(A);
  free(b);
  free(x);
  free(y);
  return 0;
}
