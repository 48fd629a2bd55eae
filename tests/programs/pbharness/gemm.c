/*
 * gemm.c -- C := alpha * A * B + beta * C
 * Original test kernel for pgcc, laid out like a PolyBench/C kernel: heap
 * arrays through bench.h, constant-size array parameters, dump to stderr.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "gemm.h"

static void init_array(int ni, int nj, int nk,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE BENCH_2D(C, NI, NJ, ni, nj),
                       DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j;

  *alpha = SCALAR_VAL(1.25);
  *beta = SCALAR_VAL(0.5);
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE)((i * 3 + j * 7 + 2) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)(i * (j + 3) % nk) / nk;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)((i + 2) * j % nj) / nj - SCALAR_VAL(0.25);
}

static void print_array(int ni, int nj, DATA_TYPE BENCH_2D(C, NI, NJ, ni, nj))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("C");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  BENCH_DUMP_END("C");
  BENCH_DUMP_FINISH;
}

static void kernel_gemm(int ni, int nj, int nk,
                        DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE BENCH_2D(C, NI, NJ, ni, nj),
                        DATA_TYPE BENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE BENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++)
      for (j = 0; j < _PB_NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;

  DATA_TYPE alpha;
  DATA_TYPE beta;
  BENCH_2D_ARRAY(C, DATA_TYPE, NI, NJ, ni, nj);
  BENCH_2D_ARRAY(A, DATA_TYPE, NI, NK, ni, nk);
  BENCH_2D_ARRAY(B, DATA_TYPE, NK, NJ, nk, nj);

  init_array(ni, nj, nk, &alpha, &beta,
             BENCH_ARRAY(C), BENCH_ARRAY(A), BENCH_ARRAY(B));

  bench_start_instruments;
  kernel_gemm(ni, nj, nk, alpha, beta,
              BENCH_ARRAY(C), BENCH_ARRAY(A), BENCH_ARRAY(B));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(ni, nj, BENCH_ARRAY(C)));

  BENCH_FREE_ARRAY(C);
  BENCH_FREE_ARRAY(A);
  BENCH_FREE_ARRAY(B);
  return 0;
}
