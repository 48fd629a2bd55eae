/* large: -DTSTEPS=60 -DN=1500 */
/*
 * seidel_2d.c -- 9-point Gauss-Seidel relaxation, updated in place
 *
 * Every interior point is replaced by the average of its 3 x 3
 * neighbourhood, using the already-updated values of earlier points.
 * The grid is a file-scope global used directly by the kernel.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TSTEPS
#define TSTEPS 8
#endif
#ifndef N
#define N 32
#endif

static double G[N][N];

static void init_grid(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      G[i][j] = (double)(((i % 19) * (i % 19) * ((j + 2) % 19) + 2 * j + 5) % 19) / 3.0;
}

static void kernel_seidel_2d(void)
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= TSTEPS - 1; t++)
    for (i = 1; i <= N - 2; i++)
      for (j = 1; j <= N - 2; j++)
        G[i][j] = (G[i - 1][j - 1] + G[i - 1][j] + G[i - 1][j + 1] +
                   G[i][j - 1] + G[i][j] + G[i][j + 1] +
                   G[i + 1][j - 1] + G[i + 1][j] + G[i + 1][j + 1]) / 9.0;
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;

  init_grid();
  kernel_seidel_2d();

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%0.2lf ", G[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += G[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
