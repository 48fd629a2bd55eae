/*
 * floyd-warshall.c -- all-pairs shortest path lengths on an integer
 * weight matrix (999 stands for "no edge").
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "floyd-warshall.h"

static void init_array(int n, DATA_TYPE BENCH_2D(path, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      path[i][j] = i * j % 11 + 2;
      if ((i + j) % 17 == 0 || (i + j) % 5 == 0 || (i * j) % 9 == 4)
        path[i][j] = 999;
    }
}

static void print_array(int n, DATA_TYPE BENCH_2D(path, N, N, n, n))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("path");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, path[i][j]);
    }
  BENCH_DUMP_END("path");
  BENCH_DUMP_FINISH;
}

static void kernel_floyd_warshall(int n, DATA_TYPE BENCH_2D(path, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (k = 0; k < _PB_N; k++)
    for (i = 0; i < _PB_N; i++)
      for (j = 0; j < _PB_N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
                     path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_2D_ARRAY(path, DATA_TYPE, N, N, n, n);

  init_array(n, BENCH_ARRAY(path));

  bench_start_instruments;
  kernel_floyd_warshall(n, BENCH_ARRAY(path));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(path)));

  BENCH_FREE_ARRAY(path);
  return 0;
}
