/*
 * heat-3d.c -- 3-D heat equation, 7-point Jacobi stencil ping-ponging
 * between two arrays; the time loop runs to the TSTEPS macro itself.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "heat-3d.h"

static void init_array(int n,
                       DATA_TYPE BENCH_3D(A, N, N, N, n, n, n),
                       DATA_TYPE BENCH_3D(B, N, N, N, n, n, n))
{
  int i, j, k;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        A[i][j][k] = B[i][j][k] = (DATA_TYPE)(i + j + (n - k)) * 10 / n;
}

static void print_array(int n, DATA_TYPE BENCH_3D(A, N, N, N, n, n, n))
{
  int i, j, k;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) {
        if ((i * n * n + j * n + k) % 20 == 0)
          fprintf(BENCH_DUMP_TARGET, "\n");
        fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j][k]);
      }
  BENCH_DUMP_END("A");
  BENCH_DUMP_FINISH;
}

static void kernel_heat_3d(int tsteps, int n,
                           DATA_TYPE BENCH_3D(A, N, N, N, n, n, n),
                           DATA_TYPE BENCH_3D(B, N, N, N, n, n, n))
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        for (k = 1; k < _PB_N - 1; k++)
          B[i][j][k] = SCALAR_VAL(0.125) * (A[i + 1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i - 1][j][k])
                     + SCALAR_VAL(0.125) * (A[i][j + 1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j - 1][k])
                     + SCALAR_VAL(0.125) * (A[i][j][k + 1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        for (k = 1; k < _PB_N - 1; k++)
          A[i][j][k] = SCALAR_VAL(0.125) * (B[i + 1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i - 1][j][k])
                     + SCALAR_VAL(0.125) * (B[i][j + 1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j - 1][k])
                     + SCALAR_VAL(0.125) * (B[i][j][k + 1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;

  BENCH_3D_ARRAY(A, DATA_TYPE, N, N, N, n, n, n);
  BENCH_3D_ARRAY(B, DATA_TYPE, N, N, N, n, n, n);

  init_array(n, BENCH_ARRAY(A), BENCH_ARRAY(B));

  bench_start_instruments;
  kernel_heat_3d(tsteps, n, BENCH_ARRAY(A), BENCH_ARRAY(B));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(A)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  return 0;
}
