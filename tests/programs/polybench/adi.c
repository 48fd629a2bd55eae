/* large: -DTSTEPS=80 -DN=1000 */
/*
 * adi.c -- alternating direction implicit (Peaceman-Rachford) solver for
 * the 2-D heat equation on the unit square
 *
 * Each time step does two half steps: first implicit along the first
 * index (one tridiagonal system per column, solved with the Thomas
 * algorithm; result in v), then implicit along the second index (one
 * system per row; result back in u).  The boundary is held at 1.0.
 * Grids and Thomas coefficients are file-scope globals.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TSTEPS
#define TSTEPS 10
#endif
#ifndef N
#define N 24
#endif

static double u[N][N];
static double v[N][N];
static double p[N][N];
static double q[N][N];

static void init_grid(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      u[i][j] = (double)((i + N - j) % N) / N;
      v[i][j] = 0.0;
      p[i][j] = 0.0;
      q[i][j] = 0.0;
    }
}

static void kernel_adi(int tsteps, int n)
{
  int t, i, j;
  double dx, dt, r, a, b, c, denom;

  dx = 1.0 / (double)n;
  dt = 1.0 / (double)tsteps;
  r = 0.5 * dt / (dx * dx);
  a = -r;
  b = 1.0 + 2.0 * r;
  c = -r;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    /* implicit in i, explicit in j: u -> v */
    for (j = 1; j < n - 1; j++) {
      v[0][j] = 1.0;
      p[j][0] = 0.0;
      q[j][0] = v[0][j];
      for (i = 1; i < n - 1; i++) {
        denom = a * p[j][i - 1] + b;
        p[j][i] = -c / denom;
        q[j][i] = (r * u[i][j - 1] + (1.0 - 2.0 * r) * u[i][j] +
                   r * u[i][j + 1] - a * q[j][i - 1]) / denom;
      }
      v[n - 1][j] = 1.0;
      for (i = n - 2; i >= 1; i--)
        v[i][j] = p[j][i] * v[i + 1][j] + q[j][i];
    }
    /* implicit in j, explicit in i: v -> u */
    for (i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j = 1; j < n - 1; j++) {
        denom = a * p[i][j - 1] + b;
        p[i][j] = -c / denom;
        q[i][j] = (r * v[i - 1][j] + (1.0 - 2.0 * r) * v[i][j] +
                   r * v[i + 1][j] - a * q[i][j - 1]) / denom;
      }
      u[i][n - 1] = 1.0;
      for (j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;

  init_grid();
  kernel_adi(TSTEPS, N);

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%0.2lf ", u[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += u[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
