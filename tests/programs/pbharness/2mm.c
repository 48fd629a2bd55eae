/*
 * 2mm.c -- two chained matrix products: tmp := alpha*A*B, D := tmp*C + beta*D.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "2mm.h"

static void init_array(int ni, int nj, int nk, int nl,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE BENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE BENCH_2D(D, NI, NL, ni, nl))
{
  int i, j;

  *alpha = 1.75;
  *beta = 0.5;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)((i * j + 3) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)(i * (j + 2) % nj) / nj;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i][j] = (DATA_TYPE)((i * (j + 1) + 5) % nl) / nl;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE)(i * (j + 4) % nk) / nk;
}

static void print_array(int ni, int nl, DATA_TYPE BENCH_2D(D, NI, NL, ni, nl))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("D");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, D[i][j]);
    }
  BENCH_DUMP_END("D");
  BENCH_DUMP_FINISH;
}

static void kernel_2mm(int ni, int nj, int nk, int nl,
                       DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE BENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE BENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE BENCH_2D(D, NI, NL, ni, nl))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++) {
      tmp[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++) {
      D[i][j] *= beta;
      for (k = 0; k < _PB_NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(tmp, DATA_TYPE, NI, NJ, ni, nj);
  BENCH_2D_ARRAY(A, DATA_TYPE, NI, NK, ni, nk);
  BENCH_2D_ARRAY(B, DATA_TYPE, NK, NJ, nk, nj);
  BENCH_2D_ARRAY(C, DATA_TYPE, NJ, NL, nj, nl);
  BENCH_2D_ARRAY(D, DATA_TYPE, NI, NL, ni, nl);

  init_array(ni, nj, nk, nl, &alpha, &beta,
             BENCH_ARRAY(A), BENCH_ARRAY(B), BENCH_ARRAY(C), BENCH_ARRAY(D));

  bench_start_instruments;
  kernel_2mm(ni, nj, nk, nl, alpha, beta, BENCH_ARRAY(tmp),
             BENCH_ARRAY(A), BENCH_ARRAY(B), BENCH_ARRAY(C), BENCH_ARRAY(D));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(ni, nl, BENCH_ARRAY(D)));

  BENCH_FREE_ARRAY(tmp);
  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  BENCH_FREE_ARRAY(C);
  BENCH_FREE_ARRAY(D);
  return 0;
}
