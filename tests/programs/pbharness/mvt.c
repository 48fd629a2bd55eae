/*
 * mvt.c -- x1 := x1 + A y1, x2 := x2 + A^T y2.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "mvt.h"

static void init_array(int n,
                       DATA_TYPE BENCH_1D(x1, N, n),
                       DATA_TYPE BENCH_1D(x2, N, n),
                       DATA_TYPE BENCH_1D(y_1, N, n),
                       DATA_TYPE BENCH_1D(y_2, N, n),
                       DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    x1[i] = (DATA_TYPE)(i % n) / n;
    x2[i] = (DATA_TYPE)((i + 2) % n) / n;
    y_1[i] = (DATA_TYPE)((i + 5) % n) / n;
    y_2[i] = (DATA_TYPE)((i + 7) % n) / n;
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)(i * (j + 1) % n) / n;
  }
}

static void print_array(int n,
                        DATA_TYPE BENCH_1D(x1, N, n),
                        DATA_TYPE BENCH_1D(x2, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("x1");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x1[i]);
  }
  BENCH_DUMP_END("x1");
  BENCH_DUMP_BEGIN("x2");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x2[i]);
  }
  BENCH_DUMP_END("x2");
  BENCH_DUMP_FINISH;
}

static void kernel_mvt(int n,
                       DATA_TYPE BENCH_1D(x1, N, n),
                       DATA_TYPE BENCH_1D(x2, N, n),
                       DATA_TYPE BENCH_1D(y_1, N, n),
                       DATA_TYPE BENCH_1D(y_2, N, n),
                       DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);
  BENCH_1D_ARRAY(x1, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(x2, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y_1, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y_2, DATA_TYPE, N, n);

  init_array(n, BENCH_ARRAY(x1), BENCH_ARRAY(x2), BENCH_ARRAY(y_1),
             BENCH_ARRAY(y_2), BENCH_ARRAY(A));

  bench_start_instruments;
  kernel_mvt(n, BENCH_ARRAY(x1), BENCH_ARRAY(x2), BENCH_ARRAY(y_1),
             BENCH_ARRAY(y_2), BENCH_ARRAY(A));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(x1), BENCH_ARRAY(x2)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(x1);
  BENCH_FREE_ARRAY(x2);
  BENCH_FREE_ARRAY(y_1);
  BENCH_FREE_ARRAY(y_2);
  return 0;
}
