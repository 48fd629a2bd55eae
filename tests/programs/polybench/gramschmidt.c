/* large: -DM=800 -DN=600 */
/*
 * gramschmidt.c -- QR decomposition by modified Gram-Schmidt
 *
 *     A (M x N, M >= N)  =  Q (M x N, orthonormal columns) * R (N x N)
 *
 * A is overwritten by the successive residuals.  The input is the
 * identity's first N columns plus a small perturbation, so the columns
 * are well conditioned and no norm is ever zero.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 24
#endif
#ifndef N
#define N 20
#endif

static void init_arrays(int m, int n, double A[m][n], double R[n][n],
                        double Q[m][n])
{
  int i, j;

  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = 0.1 * (double)((i + 3 * j) % m) / m;
      if (i == j)
        A[i][j] += 1.0;
      Q[i][j] = 0.0;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      R[i][j] = 0.0;
}

static void kernel_gramschmidt(int m, int n, double A[m][n], double R[n][n],
                               double Q[m][n])
{
  int i, j, k;
  double nrm;

#pragma scop
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

static double print_matrix(int rows, int cols, double X[rows][cols])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++) {
      fprintf(stderr, "%0.2lf ", X[i][j]);
      if ((i * cols + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += X[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double checksum;
  double (*A)[M][N] = (double(*)[M][N])malloc(sizeof(double) * M * N);
  double (*R)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*Q)[M][N] = (double(*)[M][N])malloc(sizeof(double) * M * N);

  init_arrays(M, N, *A, *R, *Q);
  kernel_gramschmidt(M, N, *A, *R, *Q);

  checksum = print_matrix(N, N, *R);
  checksum += print_matrix(M, N, *Q);
  printf("%.6e\n", checksum);

  free(A);
  free(R);
  free(Q);
  return 0;
}
