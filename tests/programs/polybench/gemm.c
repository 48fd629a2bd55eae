/* large: -DNI=1000 -DNJ=1100 -DNK=1200 */
/*
 * gemm.c -- general dense matrix-matrix product
 *
 *     C := alpha * A * B + beta * C
 *
 * A is NI x NK, B is NK x NJ, C is NI x NJ.  Storage is obtained with
 * posix_memalign (64-byte aligned) and viewed as pointers to 2-D arrays.
 * Original test program written in the style of PolyBench/C.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 24
#endif
#ifndef NJ
#define NJ 26
#endif
#ifndef NK
#define NK 28
#endif

static void fill_inputs(int ni, int nj, int nk,
                        double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (double)((i * 3 + j * 5 + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (k = 0; k < nk; k++)
      A[i][k] = (double)((i * (k + 2) + 1) % nk) / nk;
  for (k = 0; k < nk; k++)
    for (j = 0; j < nj; j++)
      B[k][j] = (double)((k * (j + 3) + 2) % nj) / (nj + 1) - 0.45;
}

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] = beta * C[i][j];
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

static double dump_matrix(int ni, int nj, double C[ni][nj])
{
  int i, j;
  int count = 0;
  double sum = 0.0;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      fprintf(stderr, "%0.2lf ", C[i][j]);
      sum += C[i][j];
      count++;
      if (count % 20 == 0)
        fprintf(stderr, "\n");
    }
  fprintf(stderr, "\n");
  return sum;
}

int main(void)
{
  void *mem_a = NULL;
  void *mem_b = NULL;
  void *mem_c = NULL;
  double (*A)[NI][NK];
  double (*B)[NK][NJ];
  double (*C)[NI][NJ];
  double alpha, beta, sum;

  if (posix_memalign(&mem_a, 64, sizeof(double) * NI * NK) != 0)
    return 1;
  if (posix_memalign(&mem_b, 64, sizeof(double) * NK * NJ) != 0)
    return 1;
  if (posix_memalign(&mem_c, 64, sizeof(double) * NI * NJ) != 0)
    return 1;
  A = (double(*)[NI][NK])mem_a;
  B = (double(*)[NK][NJ])mem_b;
  C = (double(*)[NI][NJ])mem_c;

  alpha = 1.25;
  beta = 0.75;
  fill_inputs(NI, NJ, NK, *C, *A, *B);
  kernel_gemm(NI, NJ, NK, alpha, beta, *C, *A, *B);

  sum = dump_matrix(NI, NJ, *C);
  printf("%.6e\n", sum);

  free(mem_a);
  free(mem_b);
  free(mem_c);
  return 0;
}
