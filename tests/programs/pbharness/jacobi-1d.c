/*
 * jacobi-1d.c -- 3-point Jacobi stencil on a line, two arrays alternating.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "jacobi-1d.h"

static void init_array(int n, DATA_TYPE BENCH_1D(A, N, n), DATA_TYPE BENCH_1D(B, N, n))
{
  int i;

  for (i = 0; i < n; i++) {
    A[i] = ((DATA_TYPE)i + 3) / n;
    B[i] = ((DATA_TYPE)i + 2) / n;
  }
}

static void print_array(int n, DATA_TYPE BENCH_1D(A, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i]);
  }
  BENCH_DUMP_END("A");
  BENCH_DUMP_FINISH;
}

static void kernel_jacobi_1d(int tsteps, int n,
                             DATA_TYPE BENCH_1D(A, N, n),
                             DATA_TYPE BENCH_1D(B, N, n))
{
  int t, i;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < _PB_N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;

  BENCH_1D_ARRAY(A, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(B, DATA_TYPE, N, n);

  init_array(n, BENCH_ARRAY(A), BENCH_ARRAY(B));

  bench_start_instruments;
  kernel_jacobi_1d(tsteps, n, BENCH_ARRAY(A), BENCH_ARRAY(B));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(A)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  return 0;
}
