/* large: -DTSTEPS=2000 -DN=200000 */
/*
 * jacobi_1d.c -- 3-point Jacobi smoothing in one dimension
 *
 * Each time step sweeps A -> B and then B -> A; the two boundary points
 * stay fixed.  Arrays are file-scope globals passed to the kernel as VLA
 * parameters.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 60
#endif

static double A[N];
static double B[N];

static void init_arrays(int n, double a[n], double b[n])
{
  int i;

  for (i = 0; i < n; i++) {
    a[i] = (double)(((i % 17) * (i % 17) + 3) % 17) / 4.0 + (double)i / n;
    b[i] = (double)((i * 5 + 1) % 11) / 4.0;
  }
}

static void kernel_jacobi_1d(int tsteps, int n, double a[n], double b[n])
{
  int t, i;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
    for (i = 1; i < n - 1; i++)
      a[i] = (b[i - 1] + b[i] + b[i + 1]) / 3.0;
  }
#pragma endscop
}

int main(void)
{
  int i;
  double checksum = 0.0;

  init_arrays(N, A, B);
  kernel_jacobi_1d(TSTEPS, N, A, B);

  for (i = 0; i < N; i++) {
    fprintf(stderr, "%0.2lf ", A[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    checksum += A[i];
  }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);
  return 0;
}
