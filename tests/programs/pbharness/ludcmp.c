/*
 * ludcmp.c -- LU decomposition followed by forward and back substitution
 * to solve A x = b, with a scalar accumulator w.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "ludcmp.h"

static void init_array(int n,
                       DATA_TYPE BENCH_2D(A, N, N, n, n),
                       DATA_TYPE BENCH_1D(b, N, n),
                       DATA_TYPE BENCH_1D(x, N, n),
                       DATA_TYPE BENCH_1D(y, N, n))
{
  int i, j, r, s, t;
  DATA_TYPE fn = (DATA_TYPE)n;

  for (i = 0; i < n; i++) {
    x[i] = 0;
    y[i] = 0;
    b[i] = (i + 1) / fn / 3.0 + 2;
  }
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (DATA_TYPE)(-(j + 3) % n) / n + 1;
    for (j = i + 1; j < n; j++)
      A[i][j] = 0;
    A[i][i] = 1;
  }

  BENCH_2D_ARRAY(B, DATA_TYPE, N, N, n, n);
  for (r = 0; r < n; ++r)
    for (s = 0; s < n; ++s)
      (BENCH_ARRAY(B))[r][s] = 0;
  for (t = 0; t < n; ++t)
    for (r = 0; r < n; ++r)
      for (s = 0; s < n; ++s)
        (BENCH_ARRAY(B))[r][s] += A[r][t] * A[s][t];
  for (r = 0; r < n; ++r)
    for (s = 0; s < n; ++s)
      A[r][s] = (BENCH_ARRAY(B))[r][s];
  BENCH_FREE_ARRAY(B);
}

static void print_array(int n, DATA_TYPE BENCH_1D(x, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
  }
  BENCH_DUMP_END("x");
  BENCH_DUMP_FINISH;
}

static void kernel_ludcmp(int n,
                          DATA_TYPE BENCH_2D(A, N, N, n, n),
                          DATA_TYPE BENCH_1D(b, N, n),
                          DATA_TYPE BENCH_1D(x, N, n),
                          DATA_TYPE BENCH_1D(y, N, n))
{
  int i, j, k;
  DATA_TYPE w;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < _PB_N; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }

  for (i = 0; i < _PB_N; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }

  for (i = _PB_N - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < _PB_N; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);
  BENCH_1D_ARRAY(b, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(x, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y, DATA_TYPE, N, n);

  init_array(n, BENCH_ARRAY(A), BENCH_ARRAY(b), BENCH_ARRAY(x), BENCH_ARRAY(y));

  bench_start_instruments;
  kernel_ludcmp(n, BENCH_ARRAY(A), BENCH_ARRAY(b), BENCH_ARRAY(x), BENCH_ARRAY(y));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(x)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(b);
  BENCH_FREE_ARRAY(x);
  BENCH_FREE_ARRAY(y);
  return 0;
}
