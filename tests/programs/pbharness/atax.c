/*
 * atax.c -- y := A^T (A x).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "atax.h"

static void init_array(int m, int n,
                       DATA_TYPE BENCH_2D(A, M, N, m, n),
                       DATA_TYPE BENCH_1D(x, N, n))
{
  int i, j;
  DATA_TYPE fn;

  fn = (DATA_TYPE)n;
  for (i = 0; i < n; i++)
    x[i] = 2 + (i / fn);
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)((i + 2 * j) % n) / (3 * m);
}

static void print_array(int n, DATA_TYPE BENCH_1D(y, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("y");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y[i]);
  }
  BENCH_DUMP_END("y");
  BENCH_DUMP_FINISH;
}

static void kernel_atax(int m, int n,
                        DATA_TYPE BENCH_2D(A, M, N, m, n),
                        DATA_TYPE BENCH_1D(x, N, n),
                        DATA_TYPE BENCH_1D(y, N, n),
                        DATA_TYPE BENCH_1D(tmp, M, m))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++)
    y[i] = 0;
  for (i = 0; i < _PB_M; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    for (j = 0; j < _PB_N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < _PB_N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;

  BENCH_2D_ARRAY(A, DATA_TYPE, M, N, m, n);
  BENCH_1D_ARRAY(x, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(tmp, DATA_TYPE, M, m);

  init_array(m, n, BENCH_ARRAY(A), BENCH_ARRAY(x));

  bench_start_instruments;
  kernel_atax(m, n, BENCH_ARRAY(A), BENCH_ARRAY(x), BENCH_ARRAY(y), BENCH_ARRAY(tmp));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(y)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(x);
  BENCH_FREE_ARRAY(y);
  BENCH_FREE_ARRAY(tmp);
  return 0;
}
