/*
 * nussinov.c -- Nussinov's dynamic program for RNA folding: maximum number
 * of complementary base pairs of every sub-sequence (int table, char bases).
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "nussinov.h"

/* Bases are small integers 0..3; a pair matches when they sum to 3. */
typedef char base;

#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

static void init_array(int n, base BENCH_1D(seq, N, n), DATA_TYPE BENCH_2D(table, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    seq[i] = (base)((i * 7 + 1) % 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      table[i][j] = 0;
}

static void print_array(int n, DATA_TYPE BENCH_2D(table, N, N, n, n))
{
  int i, j;
  int t = 0;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("table");
  for (i = 0; i < n; i++)
    for (j = i; j < n; j++) {
      if (t % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, table[i][j]);
      t++;
    }
  BENCH_DUMP_END("table");
  BENCH_DUMP_FINISH;
}

static void kernel_nussinov(int n, base BENCH_1D(seq, N, n), DATA_TYPE BENCH_2D(table, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = _PB_N - 1; i >= 0; i--) {
    for (j = i + 1; j < _PB_N; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < _PB_N)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);

      if (j - 1 >= 0 && i + 1 < _PB_N) {
        /* neighbouring bases cannot pair */
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }

      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;

  BENCH_1D_ARRAY(seq, base, N, n);
  BENCH_2D_ARRAY(table, DATA_TYPE, N, N, n, n);

  init_array(n, BENCH_ARRAY(seq), BENCH_ARRAY(table));

  bench_start_instruments;
  kernel_nussinov(n, BENCH_ARRAY(seq), BENCH_ARRAY(table));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(n, BENCH_ARRAY(table)));

  BENCH_FREE_ARRAY(seq);
  BENCH_FREE_ARRAY(table);
  return 0;
}
