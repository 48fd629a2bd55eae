/* large: -DM=9000 -DN=10000 */
/*
 * bicg.c -- the two matrix-vector products of a BiCG iteration
 *
 *     s := A^T * r        (length M)
 *     q := A * p          (length N)
 *
 * A is N x M.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 38
#endif
#ifndef N
#define N 42
#endif

static void init_arrays(int m, int n, double A[n][m], double r[n], double p[m])
{
  int i, j;

  for (j = 0; j < m; j++)
    p[j] = (double)(j % m) / m;
  for (i = 0; i < n; i++) {
    r[i] = (double)(i % n) / n;
    for (j = 0; j < m; j++)
      A[i][j] = (double)(i * (j + 1) % n) / n;
  }
}

static void kernel_bicg(int m, int n, double A[n][m], double s[m],
                        double q[n], double p[m], double r[n])
{
  int i, j;

#pragma scop
  for (j = 0; j < m; j++)
    s[j] = 0.0;
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}

static double print_vector(int n, double v[n])
{
  int i;
  double sum = 0.0;

  for (i = 0; i < n; i++) {
    fprintf(stderr, "%0.2lf ", v[i]);
    if (i % 20 == 19)
      fprintf(stderr, "\n");
    sum += v[i];
  }
  fprintf(stderr, "\n");
  return sum;
}

int main(void)
{
  double checksum;
  double (*A)[N][M] = (double(*)[N][M])malloc(sizeof(double) * N * M);
  double (*s)[M] = (double(*)[M])malloc(sizeof(double) * M);
  double (*q)[N] = (double(*)[N])malloc(sizeof(double) * N);
  double (*p)[M] = (double(*)[M])malloc(sizeof(double) * M);
  double (*r)[N] = (double(*)[N])malloc(sizeof(double) * N);

  init_arrays(M, N, *A, *r, *p);
  kernel_bicg(M, N, *A, *s, *q, *p, *r);

  checksum = print_vector(M, *s);
  checksum += print_vector(N, *q);
  printf("%.6e\n", checksum);

  free(A);
  free(s);
  free(q);
  free(p);
  free(r);
  return 0;
}
