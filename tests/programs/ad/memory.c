/* Memory in differentiated code: malloc/free inside a loop, VLA parameters (2-D), a local VLA, a constant global
   table, pointer arithmetic into a callee, a pointer chosen by a condition, pointers walked by for and while
   loops, memcpy and memset. Both modes against central finite differences or hand-derived values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 5
#define H 1e-6

static const double coef[4] = {0.5, -1.25, 2.0, 0.75};

double scratch_per_row(double *a, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *t = (double *)malloc(sizeof(double) * m);
    for (int k = 0; k < m; k++) t[k] = a[i] * (k + 1) * coef[k % 4];
    for (int k = 1; k < m; k++) t[k] = t[k - 1] * sin(t[k]);
    s += t[m - 1];
    free(t);
  }
  return s;
}

double frob(int n, int m, double A[n][m]) {
  double t[n];
  for (int i = 0; i < n; i++) {
    t[i] = 0;
    for (int j = 0; j < m; j++) t[i] += A[i][j] * A[i][j] * (j + 1);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += sqrt(t[i]) * (double)(i % 2 ? 1 : -1);
  return s;
}

double tail_sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i] * p[i];
  return s;
}
double shifted(double *a, int n) { return tail_sum(a + 2, n - 2) * a[0]; }

/* pointers walked through arrays: carried by a for loop, and by a while loop */
double walk(double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { s += *p * *p * (i + 1); p++; }
  return s;
}
double dot_walk(double *x, double *y, int n) {
  double s = 0;
  while (n--) s += sin(*x++) * *y++;
  return s;
}

/* memcpy into a local copy, memset of the input */
double copy_then(double *a, int n) {
  double t[8];
  memcpy(t, a, n * sizeof(double));
  for (int i = 1; i < n; i++) t[i] = t[i - 1] * sin(t[i]);
  memset(a, 0, sizeof(double));
  return t[n - 1] + a[0] * 3.0;
}

/* a pointer chosen at run time: the shadow of the chosen one receives the gradient */
double pick(double *a, double *b, int which, int n) {
  double *p = which ? a : b;
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i] * (i + 1);
  return s;
}

int main(void) {
  double a[N] = {0.3, 0.5, 0.7, 0.9, 1.1}, da[N];
  for (int i = 0; i < N; i++) da[i] = 0;
  __enzyme_autodiff((void *)scratch_per_row, a, da, N, 6);
  for (int i = 0; i < N; i++) {
    double s = a[i], v[N] = {0};
    a[i] = s + H; double fp = scratch_per_row(a, N, 6);
    a[i] = s - H; double fm = scratch_per_row(a, N, 6);
    a[i] = s;
    v[i] = 1;
    printf("malloc_rev[%d] %.10g %.10g\n", i, da[i], (fp - fm) / (2 * H));
    printf("malloc_fwd[%d] %.10g %.10g\n", i, __enzyme_fwddiff((void *)scratch_per_row, a, v, N, 6), (fp - fm) / (2 * H));
  }

  double A[3][4], dA[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) { A[i][j] = 0.2 + 0.1 * i - 0.05 * j; dA[i][j] = 0; }
  __enzyme_autodiff((void *)frob, 3, 4, A, dA);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      double s = A[i][j];
      A[i][j] = s + H; double fp = frob(3, 4, A);
      A[i][j] = s - H; double fm = frob(3, 4, A);
      A[i][j] = s;
      printf("vla[%d][%d] %.10g %.10g\n", i, j, dA[i][j], (fp - fm) / (2 * H));
    }

  for (int i = 0; i < N; i++) da[i] = 0;
  __enzyme_autodiff((void *)shifted, a, da, N);
  for (int i = 0; i < N; i++) {
    double s = a[i];
    a[i] = s + H; double fp = shifted(a, N);
    a[i] = s - H; double fm = shifted(a, N);
    a[i] = s;
    printf("shifted[%d] %.10g %.10g\n", i, da[i], (fp - fm) / (2 * H));
  }

  {
    double b[N] = {1.5, -0.5, 0.25, 2.0, 1.0}, db[N] = {0}, v[N] = {0};
    for (int i = 0; i < N; i++) da[i] = 0;
    __enzyme_autodiff((void *)walk, a, da, N);
    __enzyme_autodiff((void *)dot_walk, a, v, b, db, N);
    for (int i = 0; i < N; i++) {  /* hand-derived */
      printf("walk[%d] %.10g %.10g\n", i, da[i], 2 * a[i] * (i + 1));
      printf("dot_walk_x[%d] %.10g %.10g\n", i, v[i], cos(a[i]) * b[i]);
      printf("dot_walk_y[%d] %.10g %.10g\n", i, db[i], sin(a[i]));
    }
    double t[N] = {0};
    t[2] = 1;
    printf("walk_fwd %.10g %.10g\n", __enzyme_fwddiff((void *)walk, a, t, N), 2 * a[2] * 3);
  }

  {
    double a0[N], b[N];
    for (int i = 0; i < N; i++) { a0[i] = a[i]; da[i] = 0; }
    __enzyme_autodiff((void *)copy_then, a, da, N);  /* (a[0] is now 0) */
    for (int i = 0; i < N; i++) {
      memcpy(b, a0, sizeof b); b[i] += H; double fp = copy_then(b, N);
      memcpy(b, a0, sizeof b); b[i] -= H; double fm = copy_then(b, N);
      double v[N] = {0};
      v[i] = 1;
      memcpy(b, a0, sizeof b);
      printf("memcpy_rev[%d] %.10g %.10g\n", i, da[i], (fp - fm) / (2 * H));
      printf("memcpy_fwd[%d] %.10g %.10g\n", i, __enzyme_fwddiff((void *)copy_then, b, v, N), (fp - fm) / (2 * H));
    }
    for (int i = 0; i < N; i++) a[i] = a0[i];
  }

  for (int which = 0; which < 2; which++) {
    double b[N] = {1.5, -0.5, 0.25, 2.0, 1.0}, db[N] = {0};
    for (int i = 0; i < N; i++) da[i] = 0;
    __enzyme_autodiff((void *)pick, a, da, b, db, which, N);
    for (int i = 0; i < N; i++) {  /* hand-derived: 2 p[i] (i + 1) for the chosen array, 0 for the other */
      printf("pick%d_a[%d] %.10g %.10g\n", which, i, da[i], which ? 2 * a[i] * (i + 1) : 0.0);
      printf("pick%d_b[%d] %.10g %.10g\n", which, i, db[i], which ? 0.0 : 2 * b[i] * (i + 1));
    }
  }
  return 0;
}
