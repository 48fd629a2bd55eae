/* large: -DNI=800 -DNJ=900 -DNK=1000 -DNL=1100 */
/*
 * 2mm.c -- two chained matrix products
 *
 *     T := alpha * A * B          (NI x NJ)
 *     D := beta * D + T * C       (NI x NL)
 *
 * A is NI x NK, B is NK x NJ, C is NJ x NL.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 22
#endif
#ifndef NL
#define NL 24
#endif

static void init_arrays(int ni, int nj, int nk, int nl,
                        double A[ni][nk], double B[nk][nj],
                        double C[nj][nl], double D[ni][nl])
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (double)(i * (j + 1) % nj) / nj;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i][j] = (double)((i * (j + 3) + 1) % nl) / nl;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (double)(i * (j + 2) % nk) / nk;
}

static void kernel_2mm(int ni, int nj, int nk, int nl,
                       double alpha, double beta,
                       double T[ni][nj], double A[ni][nk], double B[nk][nj],
                       double C[nj][nl], double D[ni][nl])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      T[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        T[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; k++)
        D[i][j] += T[i][k] * C[k][j];
    }
#pragma endscop
}

static double print_array(int ni, int nl, double D[ni][nl])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      fprintf(stderr, "%0.2lf ", D[i][j]);
      if ((i * nl + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += D[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double alpha = 1.5;
  double beta = 1.2;
  double checksum;
  double (*T)[NI][NJ] = (double(*)[NI][NJ])malloc(sizeof(double) * NI * NJ);
  double (*A)[NI][NK] = (double(*)[NI][NK])malloc(sizeof(double) * NI * NK);
  double (*B)[NK][NJ] = (double(*)[NK][NJ])malloc(sizeof(double) * NK * NJ);
  double (*C)[NJ][NL] = (double(*)[NJ][NL])malloc(sizeof(double) * NJ * NL);
  double (*D)[NI][NL] = (double(*)[NI][NL])malloc(sizeof(double) * NI * NL);

  init_arrays(NI, NJ, NK, NL, *A, *B, *C, *D);
  kernel_2mm(NI, NJ, NK, NL, alpha, beta, *T, *A, *B, *C, *D);

  checksum = print_array(NI, NL, *D);
  printf("%.6e\n", checksum);

  free(T);
  free(A);
  free(B);
  free(C);
  free(D);
  return 0;
}
