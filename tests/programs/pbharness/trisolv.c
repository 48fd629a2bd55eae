/*
 * trisolv.c -- forward substitution: solves L x = b for lower triangular L.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "trisolv.h"

static void init_array(int n,
                       DATA_TYPE BENCH_2D(L, N, N, n, n),
                       DATA_TYPE BENCH_1D(x, N, n),
                       DATA_TYPE BENCH_1D(b, N, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    x[i] = -999;
    b[i] = i;
    for (j = 0; j <= i; j++)
      L[i][j] = (DATA_TYPE)(i + n - j + 2) * 2 / n;
  }
}

static void print_array(int n, DATA_TYPE BENCH_1D(x, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++) {
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
  }
  BENCH_DUMP_END("x");
  BENCH_DUMP_FINISH;
}

static void kernel_trisolv(int n,
                           DATA_TYPE BENCH_2D(L, N, N, n, n),
                           DATA_TYPE BENCH_1D(x, N, n),
                           DATA_TYPE BENCH_1D(b, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_2D_ARRAY(L, DATA_TYPE, N, N, n, n);
  BENCH_1D_ARRAY(x, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(b, DATA_TYPE, N, n);

  init_array(n, BENCH_ARRAY(L), BENCH_ARRAY(x), BENCH_ARRAY(b));

  bench_start_instruments;
  kernel_trisolv(n, BENCH_ARRAY(L), BENCH_ARRAY(x), BENCH_ARRAY(b));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(x)));

  BENCH_FREE_ARRAY(L);
  BENCH_FREE_ARRAY(x);
  BENCH_FREE_ARRAY(b);
  return 0;
}
