/* large: -DN=1100 -DM=1000 */
/*
 * syr2k.c -- symmetric rank-2k update of the lower triangle
 *
 *     C := alpha * A * B^T + alpha * B * A^T + beta * C     (j <= i only)
 *
 * C is N x N, A and B are N x M.  The strictly upper part of C is left
 * untouched and is printed as it was initialised.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 24
#endif
#ifndef M
#define M 20
#endif

static void init_arrays(int n, int m, double C[n][n], double A[n][m],
                        double B[n][m])
{
  int i, j;

  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++) {
      A[i][j] = (double)((i * j + 1) % n) / n;
      B[i][j] = (double)((i * j + 2) % m) / (m + 1);
    }
    for (j = 0; j < n; j++)
      C[i][j] = (double)((i * j + 3) % n) / m;
  }
}

static void kernel_syr2k(int n, int m, double alpha, double beta,
                         double C[n][n], double A[n][m], double B[n][m])
{
  int i, j, k;
  double acc;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      acc = 0.0;
      for (k = 0; k < m; k++)
        acc += A[i][k] * B[j][k] + B[i][k] * A[j][k];
      C[i][j] = beta * C[i][j] + alpha * acc;
    }
#pragma endscop
}

static double print_array(int n, double C[n][n])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      fprintf(stderr, "%0.2lf ", C[i][j]);
      if ((i * n + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += C[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double alpha = 1.5;
  double beta = 1.2;
  double checksum;
  double (*C)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*A)[N][M] = (double(*)[N][M])malloc(sizeof(double) * N * M);
  double (*B)[N][M] = (double(*)[N][M])malloc(sizeof(double) * N * M);

  init_arrays(N, M, *C, *A, *B);
  kernel_syr2k(N, M, alpha, beta, *C, *A, *B);

  checksum = print_array(N, *C);
  printf("%.6e\n", checksum);

  free(C);
  free(A);
  free(B);
  return 0;
}
