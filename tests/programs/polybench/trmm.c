/* large: -DM=1000 -DN=1200 */
/*
 * trmm.c -- triangular matrix times general matrix, in place
 *
 *     B := alpha * L * B
 *
 * L is M x M unit lower triangular, stored in the strictly lower part of A
 * (the diagonal and upper part of A hold junk that must not be read).
 * B is M x N and is overwritten.  Rows are produced bottom-up so that the
 * rows still needed keep their original values.
 * Arrays are file-scope globals passed to the kernel as VLA parameters.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 20
#endif
#ifndef N
#define N 24
#endif

static double A[M][M];
static double B[M][N];

static void init_arrays(int m, int n, double L[m][m], double X[m][n])
{
  int i, j;

  for (i = 0; i < m; i++) {
    for (j = 0; j < m; j++) {
      if (j < i)
        L[i][j] = (double)((i + j) % m) / (m + 1);
      else
        L[i][j] = -77.0;
    }
    for (j = 0; j < n; j++)
      X[i][j] = (double)((n + (i - j)) % n) / (n + 1);
  }
}

static void kernel_trmm(int m, int n, double alpha, double L[m][m],
                        double X[m][n])
{
  int i, j, k;

#pragma scop
  for (i = m - 1; i >= 0; i--) {
    for (k = 0; k < i; k++)
      for (j = 0; j < n; j++)
        X[i][j] += L[i][k] * X[k][j];
    for (j = 0; j < n; j++)
      X[i][j] = alpha * X[i][j];
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double alpha = 1.5;
  double checksum = 0.0;

  init_arrays(M, N, A, B);
  kernel_trmm(M, N, alpha, A, B);

  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%0.2lf ", B[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += B[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
