/* large: -DNR=100 -DNQ=120 -DNP=256 */
/*
 * doitgen.c -- multiresolution analysis kernel: every row of a 3-D array
 * is multiplied by the same NP x NP matrix
 *
 *     A[r][q][p] := sum_s A[r][q][s] * W[s][p]
 *
 * A is NR x NQ x NP, W is NP x NP, acc is an NP scratch vector.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NR
#define NR 8
#endif
#ifndef NQ
#define NQ 10
#endif
#ifndef NP
#define NP 12
#endif

static void init_arrays(int nr, int nq, int np, double A[nr][nq][np],
                        double W[np][np])
{
  int r, q, p, s;

  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++)
      for (p = 0; p < np; p++)
        A[r][q][p] = (double)((r * q + p) % np) / np;
  for (s = 0; s < np; s++)
    for (p = 0; p < np; p++)
      W[s][p] = (double)(s * p % np) / np;
}

static void kernel_doitgen(int nr, int nq, int np, double A[nr][nq][np],
                           double W[np][np], double acc[np])
{
  int r, q, p, s;

#pragma scop
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) {
        acc[p] = 0.0;
        for (s = 0; s < np; s++)
          acc[p] += A[r][q][s] * W[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = acc[p];
    }
#pragma endscop
}

static double print_array(int nr, int nq, int np, double A[nr][nq][np])
{
  int r, q, p;
  int count = 0;
  double sum = 0.0;

  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++)
      for (p = 0; p < np; p++) {
        fprintf(stderr, "%0.2lf ", A[r][q][p]);
        count++;
        if (count % 20 == 0)
          fprintf(stderr, "\n");
        sum += A[r][q][p];
      }
  fprintf(stderr, "\n");
  return sum;
}

int main(void)
{
  double checksum;
  double (*A)[NR][NQ][NP] =
      (double(*)[NR][NQ][NP])malloc(sizeof(double) * NR * NQ * NP);
  double (*W)[NP][NP] = (double(*)[NP][NP])malloc(sizeof(double) * NP * NP);
  double (*acc)[NP] = (double(*)[NP])malloc(sizeof(double) * NP);

  init_arrays(NR, NQ, NP, *A, *W);
  kernel_doitgen(NR, NQ, NP, *A, *W, *acc);

  checksum = print_array(NR, NQ, NP, *A);
  printf("%.6e\n", checksum);

  free(A);
  free(W);
  free(acc);
  return 0;
}
