/* large: -DTSTEPS=250 -DN=120 */
/*
 * heat_3d.c -- explicit (forward Euler) heat equation on a cube
 *
 * 7-point stencil with diffusion number 1/8 per axis (stable, below 1/6).
 * Each time step goes A -> B and then B -> A; boundary faces stay fixed.
 * The grids are file-scope globals used directly by the kernel.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TSTEPS
#define TSTEPS 10
#endif
#ifndef N
#define N 10
#endif

static double A[N][N][N];
static double B[N][N][N];

static void init_grids(void)
{
  int i, j, k;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++) {
        A[i][j][k] = (double)((i * i + 2 * j * k + 3 * k + 1) % 29) / 3.0;
        B[i][j][k] = A[i][j][k];
      }
}

static void kernel_heat_3d(void)
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          B[i][j][k] = A[i][j][k]
                       + 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                       + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                       + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = B[i][j][k]
                       + 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                       + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                       + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]);
  }
#pragma endscop
}

int main(void)
{
  int i, j, k;
  int count = 0;
  double checksum = 0.0;

  init_grids();
  kernel_heat_3d();

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++) {
        fprintf(stderr, "%0.2lf ", A[i][j][k]);
        count++;
        if (count % 20 == 0)
          fprintf(stderr, "\n");
        checksum += A[i][j][k];
      }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
