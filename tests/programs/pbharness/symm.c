/*
 * symm.c -- C := alpha A B + beta C with A symmetric, only its lower
 * triangle stored (the upper one holds garbage that must not be read).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "symm.h"

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(C, M, N, m, n),
                       DATA_TYPE BENCH_2D(A, M, M, m, m),
                       DATA_TYPE BENCH_2D(B, M, N, m, n))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.25;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = (DATA_TYPE)((i + j * 2) % 100) / m;
      B[i][j] = (DATA_TYPE)((n + i - j + 3) % 100) / m;
    }
  for (i = 0; i < m; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (DATA_TYPE)((i * 2 + j + 5) % 100) / m;
    for (j = i + 1; j < m; j++)
      A[i][j] = -999;
  }
}

static void print_array(int m, int n, DATA_TYPE BENCH_2D(C, M, N, m, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("C");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  BENCH_DUMP_END("C");
  BENCH_DUMP_FINISH;
}

static void kernel_symm(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE BENCH_2D(C, M, N, m, n),
                        DATA_TYPE BENCH_2D(A, M, M, m, m),
                        DATA_TYPE BENCH_2D(B, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE temp2;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(C, DATA_TYPE, M, N, m, n);
  BENCH_2D_ARRAY(A, DATA_TYPE, M, M, m, m);
  BENCH_2D_ARRAY(B, DATA_TYPE, M, N, m, n);

  init_array(m, n, &alpha, &beta, BENCH_ARRAY(C), BENCH_ARRAY(A), BENCH_ARRAY(B));

  bench_start_instruments;
  kernel_symm(m, n, alpha, beta, BENCH_ARRAY(C), BENCH_ARRAY(A), BENCH_ARRAY(B));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, n, BENCH_ARRAY(C)));

  BENCH_FREE_ARRAY(C);
  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  return 0;
}
