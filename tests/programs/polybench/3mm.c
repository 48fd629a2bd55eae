/* large: -DNI=800 -DNJ=900 -DNK=1000 -DNL=1100 -DNM=1200 */
/*
 * 3mm.c -- three matrix products
 *
 *     E := A * B      (NI x NJ),  A is NI x NK, B is NK x NJ
 *     F := C * D      (NJ x NL),  C is NJ x NM, D is NM x NL
 *     G := E * F      (NI x NL)
 *
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 14
#endif
#ifndef NJ
#define NJ 16
#endif
#ifndef NK
#define NK 18
#endif
#ifndef NL
#define NL 20
#endif
#ifndef NM
#define NM 22
#endif

static void init_arrays(int ni, int nj, int nk, int nl, int nm,
                        double A[ni][nk], double B[nk][nj],
                        double C[nj][nm], double D[nm][nl])
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (double)((i * j + 2) % ni) / (5 * ni);
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (double)((i * (j + 1) + 3) % nj) / (5 * nj);
  for (i = 0; i < nj; i++)
    for (j = 0; j < nm; j++)
      C[i][j] = (double)(i * (j + 4) % nl) / (5 * nl);
  for (i = 0; i < nm; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (double)((i * (j + 2) + 2) % nk) / (5 * nk);
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       double E[ni][nj], double A[ni][nk], double B[nk][nj],
                       double F[nj][nl], double C[nj][nm], double D[nm][nl],
                       double G[ni][nl])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; k++)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; k++)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

static double print_array(int ni, int nl, double G[ni][nl])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      fprintf(stderr, "%0.2lf ", G[i][j]);
      if ((i * nl + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += G[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double checksum;
  double (*E)[NI][NJ] = (double(*)[NI][NJ])malloc(sizeof(double) * NI * NJ);
  double (*A)[NI][NK] = (double(*)[NI][NK])malloc(sizeof(double) * NI * NK);
  double (*B)[NK][NJ] = (double(*)[NK][NJ])malloc(sizeof(double) * NK * NJ);
  double (*F)[NJ][NL] = (double(*)[NJ][NL])malloc(sizeof(double) * NJ * NL);
  double (*C)[NJ][NM] = (double(*)[NJ][NM])malloc(sizeof(double) * NJ * NM);
  double (*D)[NM][NL] = (double(*)[NM][NL])malloc(sizeof(double) * NM * NL);
  double (*G)[NI][NL] = (double(*)[NI][NL])malloc(sizeof(double) * NI * NL);

  init_arrays(NI, NJ, NK, NL, NM, *A, *B, *C, *D);
  kernel_3mm(NI, NJ, NK, NL, NM, *E, *A, *B, *F, *C, *D, *G);

  checksum = print_array(NI, NL, *G);
  printf("%.6e\n", checksum);

  free(E);
  free(A);
  free(B);
  free(F);
  free(C);
  free(D);
  free(G);
  return 0;
}
