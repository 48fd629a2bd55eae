/*
 * doitgen.c -- multiresolution analysis kernel: every (r, q) row of a 3-D
 * array is multiplied by a square matrix, through a 1-D scratch row.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "doitgen.h"

static void init_array(int nr, int nq, int np,
                       DATA_TYPE BENCH_3D(A, NR, NQ, NP, nr, nq, np),
                       DATA_TYPE BENCH_2D(C4, NP, NP, np, np))
{
  int i, j, k;

  for (i = 0; i < nr; i++)
    for (j = 0; j < nq; j++)
      for (k = 0; k < np; k++)
        A[i][j][k] = (DATA_TYPE)((i * j + 2 * k) % np) / np;
  for (i = 0; i < np; i++)
    for (j = 0; j < np; j++)
      C4[i][j] = (DATA_TYPE)((i + 3) * j % np) / np;
}

static void print_array(int nr, int nq, int np,
                        DATA_TYPE BENCH_3D(A, NR, NQ, NP, nr, nq, np))
{
  int i, j, k;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("A");
  for (i = 0; i < nr; i++)
    for (j = 0; j < nq; j++)
      for (k = 0; k < np; k++) {
        if ((i * nq * np + j * np + k) % 20 == 0)
          fprintf(BENCH_DUMP_TARGET, "\n");
        fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j][k]);
      }
  BENCH_DUMP_END("A");
  BENCH_DUMP_FINISH;
}

void kernel_doitgen(int nr, int nq, int np,
                    DATA_TYPE BENCH_3D(A, NR, NQ, NP, nr, nq, np),
                    DATA_TYPE BENCH_2D(C4, NP, NP, np, np),
                    DATA_TYPE BENCH_1D(sum, NP, np))
{
  int r, q, p, s;

#pragma scop
  for (r = 0; r < _PB_NR; r++)
    for (q = 0; q < _PB_NQ; q++) {
      for (p = 0; p < _PB_NP; p++) {
        sum[p] = SCALAR_VAL(0.0);
        for (s = 0; s < _PB_NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < _PB_NP; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int nr = NR;
  int nq = NQ;
  int np = NP;

  BENCH_3D_ARRAY(A, DATA_TYPE, NR, NQ, NP, nr, nq, np);
  BENCH_1D_ARRAY(sum, DATA_TYPE, NP, np);
  BENCH_2D_ARRAY(C4, DATA_TYPE, NP, NP, np, np);

  init_array(nr, nq, np, BENCH_ARRAY(A), BENCH_ARRAY(C4));

  bench_start_instruments;
  kernel_doitgen(nr, nq, np, BENCH_ARRAY(A), BENCH_ARRAY(C4), BENCH_ARRAY(sum));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(nr, nq, np, BENCH_ARRAY(A)));

  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(sum);
  BENCH_FREE_ARRAY(C4);
  return 0;
}
