/*
 * correlation.c -- Pearson correlation matrix of m variables observed n
 * times (columns of data are normalised in place).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "correlation.h"

static void init_array(int m, int n, DATA_TYPE *float_n,
                       DATA_TYPE BENCH_2D(data, N, M, n, m))
{
  int i, j;

  *float_n = (DATA_TYPE)N;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (DATA_TYPE)(i * j + (i % 7) * (j % 5)) / M + i;
}

static void print_array(int m, DATA_TYPE BENCH_2D(corr, M, M, m, m))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("corr");
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, corr[i][j]);
    }
  BENCH_DUMP_END("corr");
  BENCH_DUMP_FINISH;
}

static void kernel_correlation(int m, int n, DATA_TYPE float_n,
                               DATA_TYPE BENCH_2D(data, N, M, n, m),
                               DATA_TYPE BENCH_2D(corr, M, M, m, m),
                               DATA_TYPE BENCH_1D(mean, M, m),
                               DATA_TYPE BENCH_1D(stddev, M, m))
{
  int i, j, k;
  DATA_TYPE eps = SCALAR_VAL(0.1);

#pragma scop
  for (j = 0; j < _PB_M; j++) {
    mean[j] = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }

  for (j = 0; j < _PB_M; j++) {
    stddev[j] = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_N; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = SQRT_FUN(stddev[j]);
    /* a (near) constant column would divide by zero below */
    stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
  }

  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= SQRT_FUN(float_n) * stddev[j];
    }

  for (i = 0; i < _PB_M - 1; i++) {
    corr[i][i] = SCALAR_VAL(1.0);
    for (j = i + 1; j < _PB_M; j++) {
      corr[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_N; k++)
        corr[i][j] += (data[k][i] * data[k][j]);
      corr[j][i] = corr[i][j];
    }
  }
  corr[_PB_M - 1][_PB_M - 1] = SCALAR_VAL(1.0);
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;

  DATA_TYPE float_n;
  BENCH_2D_ARRAY(data, DATA_TYPE, N, M, n, m);
  BENCH_2D_ARRAY(corr, DATA_TYPE, M, M, m, m);
  BENCH_1D_ARRAY(mean, DATA_TYPE, M, m);
  BENCH_1D_ARRAY(stddev, DATA_TYPE, M, m);

  init_array(m, n, &float_n, BENCH_ARRAY(data));

  bench_start_instruments;
  kernel_correlation(m, n, float_n, BENCH_ARRAY(data), BENCH_ARRAY(corr),
                     BENCH_ARRAY(mean), BENCH_ARRAY(stddev));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(m, BENCH_ARRAY(corr)));

  BENCH_FREE_ARRAY(data);
  BENCH_FREE_ARRAY(corr);
  BENCH_FREE_ARRAY(mean);
  BENCH_FREE_ARRAY(stddev);
  return 0;
}
