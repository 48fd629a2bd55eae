/*
 * gemver.c -- rank-2 update of A, then x := beta A^T y + z, w := alpha A x.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "gemver.h"

static void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(A, N, N, n, n),
                       DATA_TYPE BENCH_1D(u1, N, n), DATA_TYPE BENCH_1D(v1, N, n),
                       DATA_TYPE BENCH_1D(u2, N, n), DATA_TYPE BENCH_1D(v2, N, n),
                       DATA_TYPE BENCH_1D(w, N, n), DATA_TYPE BENCH_1D(x, N, n),
                       DATA_TYPE BENCH_1D(y, N, n), DATA_TYPE BENCH_1D(z, N, n))
{
  int i, j;
  DATA_TYPE fn = (DATA_TYPE)n;

  *alpha = 1.25;
  *beta = 1.125;
  for (i = 0; i < n; i++) {
    u1[i] = i;
    u2[i] = ((i + 1) / fn) / 3.0;
    v1[i] = ((i + 2) / fn) / 5.0;
    v2[i] = ((i + 3) / fn) / 7.0;
    y[i] = ((i + 4) / fn) / 9.0;
    z[i] = ((i + 5) / fn) / 11.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)(i * (j + 3) % n) / n;
  }
}

static void print_array(int n, DATA_TYPE BENCH_1D(w, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("w");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, w[i]);
  }
  BENCH_DUMP_END("w");
  BENCH_DUMP_FINISH;
}

static void kernel_gemver(int n, DATA_TYPE alpha, DATA_TYPE beta,
                          DATA_TYPE BENCH_2D(A, N, N, n, n),
                          DATA_TYPE BENCH_1D(u1, N, n), DATA_TYPE BENCH_1D(v1, N, n),
                          DATA_TYPE BENCH_1D(u2, N, n), DATA_TYPE BENCH_1D(v2, N, n),
                          DATA_TYPE BENCH_1D(w, N, n), DATA_TYPE BENCH_1D(x, N, n),
                          DATA_TYPE BENCH_1D(y, N, n), DATA_TYPE BENCH_1D(z, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];

  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];

  for (i = 0; i < _PB_N; i++)
    x[i] = x[i] + z[i];

  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);
  BENCH_1D_ARRAY(u1, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(v1, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(u2, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(v2, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(w, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(x, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(y, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(z, DATA_TYPE, N, n);

  init_array(n, &alpha, &beta, BENCH_ARRAY(A),
             BENCH_ARRAY(u1), BENCH_ARRAY(v1), BENCH_ARRAY(u2), BENCH_ARRAY(v2),
             BENCH_ARRAY(w), BENCH_ARRAY(x), BENCH_ARRAY(y), BENCH_ARRAY(z));

  bench_start_instruments;
  kernel_gemver(n, alpha, beta, BENCH_ARRAY(A),
                BENCH_ARRAY(u1), BENCH_ARRAY(v1), BENCH_ARRAY(u2), BENCH_ARRAY(v2),
                BENCH_ARRAY(w), BENCH_ARRAY(x), BENCH_ARRAY(y), BENCH_ARRAY(z));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(w)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(u1);
  BENCH_FREE_ARRAY(v1);
  BENCH_FREE_ARRAY(u2);
  BENCH_FREE_ARRAY(v2);
  BENCH_FREE_ARRAY(w);
  BENCH_FREE_ARRAY(x);
  BENCH_FREE_ARRAY(y);
  BENCH_FREE_ARRAY(z);
  return 0;
}
