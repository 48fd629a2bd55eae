/* large: -DN=30000 */
/*
 * durbin.c -- Levinson-Durbin recursion for a symmetric Toeplitz system
 *
 * Solves the Yule-Walker equations T y = -r, where T is the Toeplitz
 * matrix with unit diagonal and first off-diagonals r[0], r[1], ...
 * The input r[k] = 1/(k+2) makes T positive definite (a convex,
 * decreasing sequence), so every reflection coefficient has |alpha| < 1.
 * Arrays are file-scope globals used directly by the kernel.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 60
#endif

static double r[N];
static double y[N];
static double z[N];

static void init_array(void)
{
  int i;

  for (i = 0; i < N; i++)
    r[i] = 1.0 / (double)(i + 2);
}

static void kernel_durbin(void)
{
  int i, k;
  double alpha, beta, acc;

#pragma scop
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (k = 1; k < N; k++) {
    beta = (1.0 - alpha * alpha) * beta;
    acc = 0.0;
    for (i = 0; i < k; i++)
      acc += r[k - i - 1] * y[i];
    alpha = -(r[k] + acc) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

int main(void)
{
  int i;
  double checksum = 0.0;

  init_array();
  kernel_durbin();

  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", y[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += y[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
