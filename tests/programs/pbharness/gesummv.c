/*
 * gesummv.c -- y := alpha A x + beta B x (two matrix-vector products summed).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "gesummv.h"

static void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(A, N, N, n, n),
                       DATA_TYPE BENCH_2D(B, N, N, n, n),
                       DATA_TYPE BENCH_1D(x, N, n))
{
  int i, j;

  *alpha = 0.75;
  *beta = 1.5;
  for (i = 0; i < n; i++) {
    x[i] = (DATA_TYPE)((i + 3) % n) / n;
    for (j = 0; j < n; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 2) % n) / n;
      B[i][j] = (DATA_TYPE)((i + j * 3 + 1) % n) / n;
    }
  }
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

static void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta,
                           DATA_TYPE BENCH_2D(A, N, N, n, n),
                           DATA_TYPE BENCH_2D(B, N, N, n, n),
                           DATA_TYPE BENCH_1D(tmp, N, n),
                           DATA_TYPE BENCH_1D(x, N, n),
                           DATA_TYPE BENCH_1D(y, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    y[i] = SCALAR_VAL(0.0);
    for (j = 0; j < _PB_N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);
  BENCH_2D_ARRAY(B, DATA_TYPE, N, N, n, n);
  BENCH_1D_ARRAY(tmp, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(x, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y, DATA_TYPE, N, n);

  init_array(n, &alpha, &beta, BENCH_ARRAY(A), BENCH_ARRAY(B), BENCH_ARRAY(x));

  bench_start_instruments;
  kernel_gesummv(n, alpha, beta, BENCH_ARRAY(A), BENCH_ARRAY(B),
                 BENCH_ARRAY(tmp), BENCH_ARRAY(x), BENCH_ARRAY(y));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(y)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  BENCH_FREE_ARRAY(tmp);
  BENCH_FREE_ARRAY(x);
  BENCH_FREE_ARRAY(y);
  return 0;
}
