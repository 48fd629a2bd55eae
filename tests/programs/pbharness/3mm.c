/*
 * 3mm.c -- E := A*B, F := C*D, G := E*F.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "3mm.h"

static void init_array(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE BENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE BENCH_2D(D, NM, NL, nm, nl))
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)((i * j + 2) % ni) / (4 * ni);
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % nj) / (4 * nj);
  for (i = 0; i < nj; i++)
    for (j = 0; j < nm; j++)
      C[i][j] = (DATA_TYPE)(i * (j + 2) % nl) / (4 * nl);
  for (i = 0; i < nm; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE)((i * (j + 1) + 4) % nk) / (4 * nk);
}

static void print_array(int ni, int nl, DATA_TYPE BENCH_2D(G, NI, NL, ni, nl))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("G");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, G[i][j]);
    }
  BENCH_DUMP_END("G");
  BENCH_DUMP_FINISH;
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE BENCH_2D(E, NI, NJ, ni, nj),
                       DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE BENCH_2D(F, NJ, NL, nj, nl),
                       DATA_TYPE BENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE BENCH_2D(D, NM, NL, nm, nl),
                       DATA_TYPE BENCH_2D(G, NI, NL, ni, nl))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++) {
      E[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NK; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++) {
      F[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NM; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++) {
      G[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NJ; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  int nm = NM;

  BENCH_2D_ARRAY(E, DATA_TYPE, NI, NJ, ni, nj);
  BENCH_2D_ARRAY(A, DATA_TYPE, NI, NK, ni, nk);
  BENCH_2D_ARRAY(B, DATA_TYPE, NK, NJ, nk, nj);
  BENCH_2D_ARRAY(F, DATA_TYPE, NJ, NL, nj, nl);
  BENCH_2D_ARRAY(C, DATA_TYPE, NJ, NM, nj, nm);
  BENCH_2D_ARRAY(D, DATA_TYPE, NM, NL, nm, nl);
  BENCH_2D_ARRAY(G, DATA_TYPE, NI, NL, ni, nl);

  init_array(ni, nj, nk, nl, nm,
             BENCH_ARRAY(A), BENCH_ARRAY(B), BENCH_ARRAY(C), BENCH_ARRAY(D));

  bench_start_instruments;
  kernel_3mm(ni, nj, nk, nl, nm,
             BENCH_ARRAY(E), BENCH_ARRAY(A), BENCH_ARRAY(B),
             BENCH_ARRAY(F), BENCH_ARRAY(C), BENCH_ARRAY(D),
             BENCH_ARRAY(G));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(ni, nl, BENCH_ARRAY(G)));

  BENCH_FREE_ARRAY(E);
  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  BENCH_FREE_ARRAY(F);
  BENCH_FREE_ARRAY(C);
  BENCH_FREE_ARRAY(D);
  BENCH_FREE_ARRAY(G);
  return 0;
}
