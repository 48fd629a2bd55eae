/* large: -DN=1200 -DM=1000 */
/*
 * syrk.c -- symmetric rank-k update of the lower triangle
 *
 *     C := alpha * A * A^T + beta * C     (j <= i only)
 *
 * C is N x N, A is N x M.  Arrays are file-scope globals and the
 * kernel works on them directly.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 26
#endif
#ifndef M
#define M 22
#endif

static double A[N][M];
static double C[N][N];
static double alpha;
static double beta;

static void init_arrays(void)
{
  int i, j;

  alpha = 1.5;
  beta = 1.2;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * j + 1) % N) / N;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double)((i * j + 2) % M) / M;
}

static void kernel_syrk(void)
{
  int i, j, k;

#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < M; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;

  init_arrays();
  kernel_syrk();

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%0.2lf ", C[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += C[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
