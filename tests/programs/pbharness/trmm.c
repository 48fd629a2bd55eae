/*
 * trmm.c -- B := alpha A^T B with A unit lower triangular (triangular
 * matrix-matrix product, in place).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "trmm.h"

static void init_array(int m, int n, DATA_TYPE *alpha,
                       DATA_TYPE BENCH_2D(A, M, M, m, m),
                       DATA_TYPE BENCH_2D(B, M, N, m, n))
{
  int i, j;

  *alpha = 1.25;
  for (i = 0; i < m; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (DATA_TYPE)((i + 2 * j) % m) / m;
    A[i][i] = 1.0;
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE)((n + (i - j)) % n) / n;
  }
}

static void print_array(int m, int n, DATA_TYPE BENCH_2D(B, M, N, m, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("B");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j]);
    }
  BENCH_DUMP_END("B");
  BENCH_DUMP_FINISH;
}

static void kernel_trmm(int m, int n, DATA_TYPE alpha,
                        DATA_TYPE BENCH_2D(A, M, M, m, m),
                        DATA_TYPE BENCH_2D(B, M, N, m, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++) {
      for (k = i + 1; k < _PB_M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;

  DATA_TYPE alpha;
  BENCH_2D_ARRAY(A, DATA_TYPE, M, M, m, m);
  BENCH_2D_ARRAY(B, DATA_TYPE, M, N, m, n);

  init_array(m, n, &alpha, BENCH_ARRAY(A), BENCH_ARRAY(B));

  bench_start_instruments;
  kernel_trmm(m, n, alpha, BENCH_ARRAY(A), BENCH_ARRAY(B));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, n, BENCH_ARRAY(B)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  return 0;
}
