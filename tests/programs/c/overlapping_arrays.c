/* Loop nests over pointer parameters that may point into one array: the polyhedral stage (-O3) schedules them
 * as distinct arrays only after a run-time check that the ranges they touch do not overlap. Each kernel is
 * called once with disjoint arrays and once with overlapping ones; the sums must equal gcc's. */
#include <stdio.h>
#include <stdlib.h>

#define N 96

static double grid[N * N + 2 * N];

void shift_add(int n, double *x, double *y)            /* y[i] = x[i] + 1 */
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0;
}

void smooth_rows(int n, double *a, const double *b)    /* a[i][j] += b[i][j - 1] / 2, linearized */
{
  for (int i = 0; i < n; i++)
    for (int j = 1; j < n; j++)
      a[i * n + j] = b[i * n + j - 1] * 0.5 + a[i * n + j];
}

void accumulate(int n, double A[n][n], double B[n][n]) /* A[i][j] += B[i - 1][j] */
{
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = B[i - 1][j] + A[i][j];
}

void transpose_add(int n, double A[n][n], double B[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] += B[j][i];
}

void solve_lower(int n, double L[n][n], double *x, double *b)  /* a folded dot-product scalar */
{
  for (int i = 0; i < n; i++) {
    double w = b[i];
    for (int j = 0; j < i; j++)
      w -= L[i][j] * x[j];
    x[i] = w / L[i][i];
  }
}

void scale_restrict(int n, double *restrict out, const double *restrict in)
{
  for (int i = 0; i < n; i++)
    out[i] = 2.0 * in[i];
}

static double checksum(const double *p, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * 0.999 + p[i] * (1 + i % 7);
  return s;
}

static void fill(double *p, int n, int seed)
{
  for (int i = 0; i < n; i++)
    p[i] = (double)((i * 37 + seed) % 19) / 19.0;
}

int main(void)
{
  int n = N, total = N * N + 2 * N;
  double *heap = malloc(sizeof(double) * total), *other = malloc(sizeof(double) * total);

  fill(heap, total, 1); fill(other, total, 2);
  shift_add(4 * n, heap, other);                 /* disjoint */
  shift_add(4 * n, heap, heap + 1);              /* y one element past x: a chain */
  shift_add(4 * n, heap + 3, heap);              /* y before x: reads values not yet written */
  printf("shift_add   %.12g %.12g\n", checksum(heap, total), checksum(other, total));

  fill(heap, total, 3); fill(other, total, 4);
  smooth_rows(n, heap, other);
  smooth_rows(n, heap, heap);
  smooth_rows(n, heap + n, heap);
  printf("smooth_rows %.12g\n", checksum(heap, total));

  fill(grid, total, 5); fill(other, total, 6);
  accumulate(n, (double (*)[n])grid, (double (*)[n])other);
  accumulate(n, (double (*)[n])grid, (double (*)[n])grid);
  accumulate(n - 1, (double (*)[n - 1])(grid + 1), (double (*)[n - 1])grid);
  printf("accumulate  %.12g\n", checksum(grid, total));

  fill(heap, total, 7);
  transpose_add(n, (double (*)[n])heap, (double (*)[n])heap);
  transpose_add(n / 2, (double (*)[n / 2])heap, (double (*)[n / 2])(heap + n));
  printf("transpose   %.12g\n", checksum(heap, total));

  fill(heap, total, 8);
  for (int i = 0; i < n; i++)
    heap[i * n + i] += n;
  solve_lower(n, (double (*)[n])heap, other, other + n);               /* disjoint */
  solve_lower(n, (double (*)[n])heap, heap + n * n, heap + n * n + 1); /* x and b overlap */
  solve_lower(n, (double (*)[n])heap, heap + 5, heap + 2 * n);         /* x inside L */
  printf("solve_lower %.12g %.12g\n", checksum(heap, total), checksum(other, 2 * n));

  fill(heap, total, 9);
  scale_restrict(2 * n, other, heap);
  printf("restrict    %.12g\n", checksum(other, 2 * n));
  free(heap);
  free(other);
  return 0;
}
