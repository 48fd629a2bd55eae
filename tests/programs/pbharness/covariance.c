/*
 * covariance.c -- sample covariance matrix of m variables observed n times.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "covariance.h"

static void init_array(int m, int n, DATA_TYPE *float_n,
                       DATA_TYPE BENCH_2D(data, N, M, n, m))
{
  int i, j;

  *float_n = (DATA_TYPE)n;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = ((DATA_TYPE)i * (j + 1)) / M;
}

static void print_array(int m, DATA_TYPE BENCH_2D(cov, M, M, m, m))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("cov");
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, cov[i][j]);
    }
  BENCH_DUMP_END("cov");
  BENCH_DUMP_FINISH;
}

static void kernel_covariance(int m, int n, DATA_TYPE float_n,
                              DATA_TYPE BENCH_2D(data, N, M, n, m),
                              DATA_TYPE BENCH_2D(cov, M, M, m, m),
                              DATA_TYPE BENCH_1D(mean, M, m))
{
  int i, j, k;

#pragma scop
  for (j = 0; j < _PB_M; j++) {
    mean[j] = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }

  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      data[i][j] -= mean[j];

  for (i = 0; i < _PB_M; i++)
    for (j = i; j < _PB_M; j++) {
      cov[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - SCALAR_VAL(1.0));
      cov[j][i] = cov[i][j];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;

  DATA_TYPE float_n;
  BENCH_2D_ARRAY(data, DATA_TYPE, N, M, n, m);
  BENCH_2D_ARRAY(cov, DATA_TYPE, M, M, m, m);
  BENCH_1D_ARRAY(mean, DATA_TYPE, M, m);

  init_array(m, n, &float_n, BENCH_ARRAY(data));

  bench_start_instruments;
  kernel_covariance(m, n, float_n, BENCH_ARRAY(data), BENCH_ARRAY(cov), BENCH_ARRAY(mean));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, BENCH_ARRAY(cov)));

  BENCH_FREE_ARRAY(data);
  BENCH_FREE_ARRAY(cov);
  BENCH_FREE_ARRAY(mean);
  return 0;
}
