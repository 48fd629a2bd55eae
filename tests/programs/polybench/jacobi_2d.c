/* large: -DTSTEPS=500 -DN=1300 */
/*
 * jacobi_2d.c -- 5-point Jacobi smoothing on a square grid
 *
 * Each time step sweeps A -> B and then B -> A over the interior points;
 * the border keeps its initial values.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TSTEPS
#define TSTEPS 12
#endif
#ifndef N
#define N 30
#endif

static void init_arrays(int n, double A[n][n], double B[n][n])
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (double)((i * i + 3 * j * j + 1) % 23) / 7.0;
      B[i][j] = (double)((i * (j + 3) + 3) % n) / n;
    }
}

static void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;
  double (*A)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);
  double (*B)[N][N] = (double(*)[N][N])malloc(sizeof(double) * N * N);

  init_arrays(N, *A, *B);
  kernel_jacobi_2d(TSTEPS, N, *A, *B);

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%0.2lf ", (*A)[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += (*A)[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(A);
  free(B);
  return 0;
}
