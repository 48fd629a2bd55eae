/*
 * seidel-2d.c -- 9-point Gauss-Seidel sweep, updated in place.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "seidel-2d.h"

static void init_array(int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = ((DATA_TYPE)i * (j + 3) + 1) / n;
}

static void print_array(int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  BENCH_DUMP_END("A");
  BENCH_DUMP_FINISH;
}

static void kernel_seidel_2d(int tsteps, int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= _PB_TSTEPS - 1; t++)
    for (i = 1; i <= _PB_N - 2; i++)
      for (j = 1; j <= _PB_N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / SCALAR_VAL(9.0);
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;

  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);

  init_array(n, BENCH_ARRAY(A));

  bench_start_instruments;
  kernel_seidel_2d(tsteps, n, BENCH_ARRAY(A));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(A)));

  BENCH_FREE_ARRAY(A);
  return 0;
}
