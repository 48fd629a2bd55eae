/*
 * gramschmidt.c -- QR decomposition by modified Gram-Schmidt: A (m x n) is
 * overwritten, Q receives the orthonormal columns, R the upper factor.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "gramschmidt.h"

static void init_array(int m, int n,
                       DATA_TYPE BENCH_2D(A, M, N, m, n),
                       DATA_TYPE BENCH_2D(R, N, N, n, n),
                       DATA_TYPE BENCH_2D(Q, M, N, m, n))
{
  int i, j;

  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (((DATA_TYPE)((i * j + 1) % m) / m) * 50) + 10 + (i == j ? 40 : 0);
      Q[i][j] = 0.0;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      R[i][j] = 0.0;
}

static void print_array(int m, int n,
                        DATA_TYPE BENCH_2D(A, M, N, m, n),
                        DATA_TYPE BENCH_2D(R, N, N, n, n),
                        DATA_TYPE BENCH_2D(Q, M, N, m, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("R");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, R[i][j]);
    }
  BENCH_DUMP_END("R");
  BENCH_DUMP_BEGIN("Q");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, Q[i][j]);
    }
  BENCH_DUMP_END("Q");
  BENCH_DUMP_FINISH;
}

static void kernel_gramschmidt(int m, int n,
                               DATA_TYPE BENCH_2D(A, M, N, m, n),
                               DATA_TYPE BENCH_2D(R, N, N, n, n),
                               DATA_TYPE BENCH_2D(Q, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE nrm;

#pragma scop
  for (k = 0; k < _PB_N; k++) {
    nrm = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = SQRT_FUN(nrm);
    for (i = 0; i < _PB_M; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < _PB_N; j++) {
      R[k][j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < _PB_M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;

  BENCH_2D_ARRAY(A, DATA_TYPE, M, N, m, n);
  BENCH_2D_ARRAY(R, DATA_TYPE, N, N, n, n);
  BENCH_2D_ARRAY(Q, DATA_TYPE, M, N, m, n);

  init_array(m, n, BENCH_ARRAY(A), BENCH_ARRAY(R), BENCH_ARRAY(Q));

  bench_start_instruments;
  kernel_gramschmidt(m, n, BENCH_ARRAY(A), BENCH_ARRAY(R), BENCH_ARRAY(Q));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, n, BENCH_ARRAY(A), BENCH_ARRAY(R), BENCH_ARRAY(Q)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(R);
  BENCH_FREE_ARRAY(Q);
  return 0;
}
