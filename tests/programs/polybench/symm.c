/* large: -DM=700 -DN=1000 */
/*
 * symm.c -- symmetric matrix times general matrix
 *
 *     C := alpha * A * B + beta * C
 *
 * A is an M x M symmetric matrix of which only the lower triangle
 * (including the diagonal) is referenced; the strictly upper part holds
 * a large sentinel value that must never enter the result.
 * B and C are M x N.
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

static void init_arrays(int m, int n, double A[m][m], double B[m][n],
                        double C[m][n])
{
  int i, j;

  for (i = 0; i < m; i++) {
    for (j = 0; j < m; j++) {
      if (j <= i)
        A[i][j] = (double)((i + 2 * j + 1) % m) / m;
      else
        A[i][j] = 1000.0;
    }
    for (j = 0; j < n; j++) {
      B[i][j] = (double)((i * 7 + j * 3) % n) / (n + 1) - 0.45;
      C[i][j] = (double)((i + j) % 10) / 10.0;
    }
  }
}

static void kernel_symm(int m, int n, double alpha, double beta,
                        double A[m][m], double B[m][n], double C[m][n])
{
  int i, j, k;
  double acc;

#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      acc = 0.0;
      for (k = 0; k <= i; k++)
        acc += A[i][k] * B[k][j];
      for (k = i + 1; k < m; k++)
        acc += A[k][i] * B[k][j];
      C[i][j] = beta * C[i][j] + alpha * acc;
    }
#pragma endscop
}

static double print_array(int m, int n, double C[m][n])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < m; i++)
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
  double beta = 0.5;
  double checksum;
  double (*A)[M][M] = (double(*)[M][M])malloc(sizeof(double) * M * M);
  double (*B)[M][N] = (double(*)[M][N])malloc(sizeof(double) * M * N);
  double (*C)[M][N] = (double(*)[M][N])malloc(sizeof(double) * M * N);

  init_arrays(M, N, *A, *B, *C);
  kernel_symm(M, N, alpha, beta, *A, *B, *C);

  checksum = print_array(M, N, *C);
  printf("%.6e\n", checksum);

  free(A);
  free(B);
  free(C);
  return 0;
}
