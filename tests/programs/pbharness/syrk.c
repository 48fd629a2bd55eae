/*
 * syrk.c -- symmetric rank-k update of the lower triangle of C:
 * C := alpha A A^T + beta C.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "syrk.h"

static void init_array(int n, int m, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(C, N, N, n, n),
                       DATA_TYPE BENCH_2D(A, N, M, n, m))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.25;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 2) + 1) % n) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[i][j] = (DATA_TYPE)((i * j + 3) % m) / m;
}

static void print_array(int n, DATA_TYPE BENCH_2D(C, N, N, n, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("C");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  BENCH_DUMP_END("C");
  BENCH_DUMP_FINISH;
}

static void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE BENCH_2D(C, N, N, n, n),
                        DATA_TYPE BENCH_2D(A, N, M, n, m))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_M; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(C, DATA_TYPE, N, N, n, n);
  BENCH_2D_ARRAY(A, DATA_TYPE, N, M, n, m);

  init_array(n, m, &alpha, &beta, BENCH_ARRAY(C), BENCH_ARRAY(A));

  bench_start_instruments;
  kernel_syrk(n, m, alpha, beta, BENCH_ARRAY(C), BENCH_ARRAY(A));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(C)));

  BENCH_FREE_ARRAY(C);
  BENCH_FREE_ARRAY(A);
  return 0;
}
