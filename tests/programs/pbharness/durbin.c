/*
 * durbin.c -- Levinson-Durbin recursion: solves a Toeplitz system for the
 * autoregression coefficients y, with a scratch vector local to the kernel.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "durbin.h"

static void init_array(int n, DATA_TYPE BENCH_1D(r, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    r[i] = (DATA_TYPE)(n + 2 - i) / (4 * n);
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

static void kernel_durbin(int n, DATA_TYPE BENCH_1D(r, N, n), DATA_TYPE BENCH_1D(y, N, n))
{
  DATA_TYPE BENCH_1D_VAR(z, N, n);
  DATA_TYPE alpha;
  DATA_TYPE beta;
  DATA_TYPE sum;
  int i, k;

#pragma scop
  y[0] = -r[0];
  beta = SCALAR_VAL(1.0);
  alpha = -r[0];

  for (k = 1; k < _PB_N; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = SCALAR_VAL(0.0);
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;

    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_1D_ARRAY(r, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y, DATA_TYPE, N, n);

  init_array(n, BENCH_ARRAY(r));

  bench_start_instruments;
  kernel_durbin(n, BENCH_ARRAY(r), BENCH_ARRAY(y));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(y)));

  BENCH_FREE_ARRAY(r);
  BENCH_FREE_ARRAY(y);
  return 0;
}
