/* Reverse mode through `omp parallel for` loops whose pointer parameters share memory (valid C without
   restrict): two inputs half a buffer apart, so that different threads add into the same gradient elements;
   neighbours one element apart; separate arrays; an in-place update. main aborts when a derivative is off
   (analytic values, or central differences for the in-place update). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

void product(int n, const double *a, const double *b, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a[i] * b[i];
}

void soften(int n, const double *in, double *out) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = log1p(in[i] * in[i]) + 0.25 * in[i];
}

static void approx(const char *what, int i, double got, double want, double tol) {
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) {
    fprintf(stderr, "%s[%d]: %.12g, expected %.12g\n", what, i, got, want);
    abort();
  }
}

int main(void) {
  enum { N = 1 << 15, H = N / 2, REPS = 6 };
  double *x = malloc((N + H) * sizeof(double)), *g = malloc((N + H) * sizeof(double));
  double *y = malloc(N * sizeof(double)), *dy = malloc(N * sizeof(double));
  for (int i = 0; i < N + H; i++) x[i] = 0.5 + (i % 9) * 0.125;

  /* gradients half a buffer apart: element j gets b[j] dy[j] + a[j - H] dy[j - H] per call */
  for (int i = 0; i < N + H; i++) g[i] = 0;
  for (int r = 0; r < REPS; r++) {
    for (int i = 0; i < N; i++) dy[i] = 1 + i % 4;
    __enzyme_autodiff((void *)product, enzyme_const, N, enzyme_dup, x, g, enzyme_dup, x + H, g + H,
                      enzyme_dup, y, dy);
  }
  for (int j = 0; j < N + H; j++) {
    double want = (j < N ? x[j + H] * (1 + j % 4) : 0) + (j >= H ? x[j - H] * (1 + (j - H) % 4) : 0);
    approx("halves", j, g[j], REPS * want, 1e-12);
  }

  /* neighbours: product(n, x, x + 1, y), d x[j] = x[j + 1] dy[j] + x[j - 1] dy[j - 1] */
  for (int i = 0; i < N + 1; i++) g[i] = 0;
  for (int i = 0; i < N; i++) dy[i] = 1;
  __enzyme_autodiff((void *)product, enzyme_const, N, enzyme_dup, x, g, enzyme_dup, x + 1, g + 1,
                    enzyme_dup, y, dy);
  for (int j = 0; j <= N; j++)
    approx("neighbours", j, g[j], (j < N ? x[j + 1] : 0) + (j > 0 ? x[j - 1] : 0), 1e-12);

  /* separate arrays: d a[i] = b[i], d b[i] = a[i] */
  double *b = malloc(N * sizeof(double)), *db = calloc(N, sizeof(double));
  for (int i = 0; i < N; i++) { b[i] = 2.0 - (i % 5) * 0.25; g[i] = 0; dy[i] = 1; }
  __enzyme_autodiff((void *)product, enzyme_const, N, enzyme_dup, x, g, enzyme_dup, b, db, enzyme_dup, y, dy);
  for (int i = 0; i < N; i++) {
    approx("separate a", i, g[i], b[i], 1e-12);
    approx("separate b", i, db[i], x[i], 1e-12);
  }

  /* in place: soften(n, u, u) with the seed in the same shadow, against central differences */
  enum { M = 4096 };
  double *u = malloc(M * sizeof(double)), *du = malloc(M * sizeof(double));
  double *lo = malloc(M * sizeof(double)), *hi = malloc(M * sizeof(double));
  const double eps = 1e-6;
  for (int i = 0; i < M; i++) lo[i] = 0.05 * (i % 40) - 1 - eps, hi[i] = lo[i] + 2 * eps;
  soften(M, lo, lo);
  soften(M, hi, hi);
  for (int i = 0; i < M; i++) { u[i] = 0.05 * (i % 40) - 1; du[i] = 1; }
  __enzyme_autodiff((void *)soften, enzyme_const, M, enzyme_dup, u, du, enzyme_dup, u, du);
  for (int i = 0; i < M; i++)
    approx("in place", i, du[i], (hi[i] - lo[i]) / (2 * eps), 1e-6);
  puts("ok");
  return 0;
}
