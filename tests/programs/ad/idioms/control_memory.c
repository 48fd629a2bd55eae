/* Control flow and memory forms together: `continue` and a return from a nested loop, a switch (scf.index_switch)
   with fabs/fmax arms, a pointer walk whose exit depends on the data, addresses kept as integers in malloc'd
   records, a static local array used as scratch (a global: it gets a shadow), and an array of records of doubles
   whose elements are swapped and passed by value to a helper, rows malloc'd in a loop into a table of pointers
   (forward mode), switches. Reverse mode against central differences, forward
   mode against reverse mode (dot-product test). Prints "label derivative reference"; aborts on a wrong
   derivative. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 6
#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-6 * (1 + fabs(want_)))) abort();                     \
  } while (0)

/* continue and nested early return */
double f3(double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    if (x[i] < 0) continue;
    for (int j = 0; j < N; j++) {
      if (x[j] > 1.9) return s * x[j];
      s += x[i] * x[j] * 0.1;
    }
  }
  return s;
}
/* switch on an index, fmax/fabs */
double f4(double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    switch (i % 3) {
      case 0: s += fabs(x[i]) * x[(i + 1) % N]; break;
      case 1: s += fmax(x[i], x[(i + 2) % N]); break;
      default: s -= x[i] * x[i];
    }
  }
  return s;
}
/* pointer walk until sentinel computed from data */
double f5(double *x) {
  double *p = x, s = 1;
  while (p < x + N && *p > -1.0) { s *= 1 + *p * 0.5; p++; }
  return s;
}
/* uintptr in malloc'd array of records */
typedef struct { uintptr_t a; double w; } ent;
double f6(double *x) {
  ent *e = malloc(3 * sizeof(ent));
  for (int i = 0; i < 3; i++) { e[i].a = (uintptr_t)(x + 2 * i); e[i].w = x[2*i+1]; }
  double s = 0;
  for (int i = 0; i < 3; i++) s += *(double *)e[i].a * e[i].w;
  free(e);
  return s;
}
/* static local array as scratch */
double f7(double *x) {
  static double tmp[N];
  for (int i = 0; i < N; i++) tmp[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += tmp[i] * tmp[N - 1 - i];
  return s;
}
/* local array of struct copies, passed by value */
typedef struct { double a, b; } pr;
static double use(pr p) { return p.a * p.b; }
double f8(double *x) {
  pr ps[3];
  for (int i = 0; i < 3; i++) { ps[i].a = x[i]; ps[i].b = x[i + 3]; }
  pr q = ps[1]; ps[1] = ps[2]; ps[2] = q;
  double s = 0;
  for (int i = 0; i < 3; i++) s += use(ps[i]) * (i + 1);
  return s;
}
/* rows malloc'd in a loop and kept in a malloc'd table, written through the pointers read back from it (forward
   mode; reverse mode is an error: tests/test_ad_idioms.py) */
double rows_table(double *x) {
  double **rows = malloc(3 * sizeof(double *));
  for (int i = 0; i < 3; i++) {
    rows[i] = malloc(2 * sizeof(double));
    rows[i][0] = x[2 * i] * x[2 * i + 1];
    rows[i][1] = sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < 3; i++) s += rows[i][0] * rows[(i + 1) % 3][1];
  for (int i = 0; i < 3; i++) free(rows[i]);
  free(rows);
  return s;
}

/* a switch with only a default arm, then one whose arms add, multiply or subtract */
double switched(double x, int k) {
  double r = 0;
  switch (k) {
    default: r = x * x;
  }
  switch (k) {
    case 1: r *= x; break;
    case 2: r += x; break;
    case 7: r -= 3 * x; break;
    default: break;
  }
  return r;
}

/* reverse mode against central differences, forward mode against reverse mode */
#define CHECK(f)                                                                         \
  do {                                                                                  \
    double x[N] = {0.3, -0.5, 1.2, 0.8, 1.5, 0.4}, dx[N] = {0};                          \
    double v[N] = {1, 0.5, -1, 2, 0.25, -0.5}, tv = 0;                                  \
    __enzyme_autodiff((void *)f, x, dx);                                                \
    for (int i = 0; i < N; i++) {                                                       \
      double xp[N], xm[N];                                                              \
      memcpy(xp, x, sizeof x);                                                          \
      memcpy(xm, x, sizeof x);                                                          \
      xp[i] += 1e-6;                                                                    \
      xm[i] -= 1e-6;                                                                    \
      APPROX_EQ(#f, i, dx[i], (f(xp) - f(xm)) / 2e-6);                                  \
      tv += dx[i] * v[i];                                                               \
    }                                                                                   \
    APPROX_EQ(#f "_fwd", 0, __enzyme_fwddiff((void *)f, x, v), tv);                     \
  } while (0)

int main(void) {
  CHECK(f3);
  CHECK(f4);
  CHECK(f5);
  CHECK(f6);
  CHECK(f7);
  CHECK(f8);
  {
    double x[N] = {0.3, -0.5, 1.2, 0.8, 1.5, 0.4}, v[N] = {1, 0.5, -1, 2, 0.25, -0.5}, xp[N], xm[N];
    for (int i = 0; i < N; i++) xp[i] = x[i] + 1e-6 * v[i], xm[i] = x[i] - 1e-6 * v[i];
    APPROX_EQ("rows_table_fwd", 0, __enzyme_fwddiff((void *)rows_table, x, v),
              (rows_table(xp) - rows_table(xm)) / 2e-6);
  }
  for (int k = 0; k < 8; k++) {
    double x = 1.5, want = k == 1 ? 3 * x * x : k == 2 ? 2 * x + 1 : k == 7 ? 2 * x - 3 : 2 * x;
    APPROX_EQ("switched", k, __enzyme_autodiff((void *)switched, x, k) + 1.0, want + 1.0);
  }
  return 0;
}
