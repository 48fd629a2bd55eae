/*
 * lu.c -- in-place LU decomposition without pivoting (Doolittle, row by row)
 * of a matrix made well conditioned in init_array.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "lu.h"

static void init_array(int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j, r, s, t;

  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (DATA_TYPE)(-(j + 2) % n) / n + 1;
    for (j = i + 1; j < n; j++)
      A[i][j] = 0;
    A[i][i] = 1;
  }

  /* A := A A^T through a scratch array that is freed with the wrapper. */
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
#ifndef BENCH_STACK_ARRAYS
  bench_free_data((void *)B);
#endif
}

static void print_array(int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  BENCH_DUMP_END("A");
  BENCH_DUMP_FINISH;
}

static void kernel_lu(int n, DATA_TYPE BENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < _PB_N; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_2D_ARRAY(A, DATA_TYPE, N, N, n, n);

  init_array(n, BENCH_ARRAY(A));

  bench_start_instruments;
  kernel_lu(n, BENCH_ARRAY(A));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(A)));

  BENCH_FREE_ARRAY(A);
  return 0;
}
