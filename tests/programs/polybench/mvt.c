/* large: -DN=8000 */
/*
 * mvt.c -- a matrix-vector product and a transposed one
 *
 *     x1 := x1 + A * y1
 *     x2 := x2 + A^T * y2
 *
 * A is N x N.  All arrays are file-scope globals used directly.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 40
#endif

static double A[N][N];
static double x1[N];
static double x2[N];
static double y1_in[N];
static double y2_in[N];

static void init_arrays(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    x1[i] = (double)(i % N) / N;
    x2[i] = (double)((i + 1) % N) / N;
    y1_in[i] = (double)((i + 3) % N) / N;
    y2_in[i] = (double)((i + 4) % N) / N;
    for (j = 0; j < N; j++)
      A[i][j] = (double)(i * j % N) / (N + 1);
  }
}

static void kernel_mvt(void)
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y1_in[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y2_in[j];
#pragma endscop
}

int main(void)
{
  int i;
  double checksum = 0.0;

  init_arrays();
  kernel_mvt();

  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", x1[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += x1[i];
  }
  fprintf(stderr, "\n");
  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", x2[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += x2[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
