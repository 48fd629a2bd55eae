/*
 * bicg.c -- the two products of a BiCG step: s := A^T r, q := A p.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "bicg.h"

static void init_array(int m, int n,
                       DATA_TYPE BENCH_2D(A, N, M, n, m),
                       DATA_TYPE BENCH_1D(r, N, n),
                       DATA_TYPE BENCH_1D(p, M, m))
{
  int i, j;

  for (i = 0; i < m; i++)
    p[i] = (DATA_TYPE)((i * 3) % m) / m;
  for (i = 0; i < n; i++) {
    r[i] = (DATA_TYPE)((i * 5) % n) / n;
    for (j = 0; j < m; j++)
      A[i][j] = (DATA_TYPE)((i + 1) * (j + 2) % n) / n;
  }
}

static void print_array(int m, int n,
                        DATA_TYPE BENCH_1D(s, M, m),
                        DATA_TYPE BENCH_1D(q, N, n))
{
  int i;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("s");
  for (i = 0; i < m; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, s[i]);
  }
  BENCH_DUMP_END("s");
  BENCH_DUMP_BEGIN("q");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(BENCH_DUMP_TARGET, "\n");
    fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, q[i]);
  }
  BENCH_DUMP_END("q");
  BENCH_DUMP_FINISH;
}

static void kernel_bicg(int m, int n,
                        DATA_TYPE BENCH_2D(A, N, M, n, m),
                        DATA_TYPE BENCH_1D(s, M, m),
                        DATA_TYPE BENCH_1D(q, N, n),
                        DATA_TYPE BENCH_1D(p, M, m),
                        DATA_TYPE BENCH_1D(r, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    s[i] = 0;
  for (i = 0; i < _PB_N; i++) {
    q[i] = SCALAR_VAL(0.0);
    for (j = 0; j < _PB_M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;

  BENCH_2D_ARRAY(A, DATA_TYPE, N, M, n, m);
  BENCH_1D_ARRAY(s, DATA_TYPE, M, m);
  BENCH_1D_ARRAY(q, DATA_TYPE, N, n);
  BENCH_1D_ARRAY(p, DATA_TYPE, M, m);
  BENCH_1D_ARRAY(r, DATA_TYPE, N, n);

  init_array(m, n, BENCH_ARRAY(A), BENCH_ARRAY(r), BENCH_ARRAY(p));

  bench_start_instruments;
  kernel_bicg(m, n, BENCH_ARRAY(A), BENCH_ARRAY(s), BENCH_ARRAY(q),
              BENCH_ARRAY(p), BENCH_ARRAY(r));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, n, BENCH_ARRAY(s), BENCH_ARRAY(q)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(s);
  BENCH_FREE_ARRAY(q);
  BENCH_FREE_ARRAY(p);
  BENCH_FREE_ARRAY(r);
  return 0;
}
