/* Pointers to differentiated memory kept in memory: a local struct holding a pointer, a local array of
   pointers, a malloc'd array of pointers (rows of a matrix), a malloc'd array of records each pointing into
   the input, one malloc'd record, one malloc'd in every iteration, variable-length arrays of pointers and of records. Both modes, against central finite differences. Prints "label derivative
   reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup;

#define N 6
static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) failures++;
}

typedef struct { const double *data; double scale; int len; } view;
typedef struct { double weight; const double *at; int tag; } term;

/* a local struct carrying a pointer into the input */
double view_norm(const double *x, int n) {
  view v = {x + 1, 0.5, n - 1};
  double s = 0;
  for (int i = 0; i < v.len; i++) s += v.data[i] * v.data[i] * v.scale;
  return sqrt(s + x[0] * x[0]);
}

/* a local array of pointers: the rows of a 2 x 3 matrix kept in x */
double row_products(const double *x, int n) {
  const double *rows[2];
  rows[0] = x;
  rows[1] = x + n / 2;
  double s = 0;
  for (int j = 0; j < n / 2; j++) s += rows[0][j] * rows[1][j] + cos(rows[1][j]);
  return s;
}

/* a malloc'd array of pointers, filled in reverse order */
double reversed_pairs(const double *x, int n) {
  const double **p = malloc(n * sizeof(const double *));
  for (int i = 0; i < n; i++) p[i] = &x[n - 1 - i];
  double s = 0;
  for (int i = 0; i < n; i++) s += *p[i] * x[i] * (i + 1);
  free(p);
  return s;
}

/* a malloc'd array of records, each pointing at another element */
double weighted_terms(const double *x, int n) {
  term *t = malloc(n * sizeof(term));
  for (int i = 0; i < n; i++) {
    t[i].weight = exp(-x[i]);
    t[i].at = x + (i + 2) % n;
    t[i].tag = i % 3;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i].weight * t[i].at[0] * (t[i].tag + 1);
  free(t);
  return s;
}

/* one malloc'd record */
double one_record(const double *x, int n) {
  view *v = malloc(sizeof(view));
  v->data = x;
  v->scale = x[n - 1];
  v->len = n;
  double s = 0;
  for (int i = 0; i < v->len - 1; i++) s += v->data[i] * v->scale;
  free(v);
  return s;
}

/* a record malloc'd, filled and released in every iteration */
double per_iteration(const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    view *v = malloc(sizeof(view));
    v->data = x + (n - 1 - i);
    v->scale = sin(x[i]);
    v->len = i;
    r += v->scale * v->data[0] * (v->len + 1);
    free(v);
  }
  return r;
}

/* records malloc'd under a condition (also inside a loop) */
double conditional_records(const double *x, int n) {
  double r = x[0];
  if (n > 2) {
    view *v = malloc(sizeof(view));
    v->data = x + 2;
    v->scale = sin(x[1]);
    r += v->scale * v->data[0];
    free(v);
  }
  for (int i = 1; i < n; i++)
    if (i % 2) {
      view *v = malloc(sizeof(view));
      v->data = x + i;
      v->scale = x[i - 1];
      r += v->scale * v->data[0];
      free(v);
    }
  return r;
}

/* variable-length arrays of pointers and of records on the stack */
double stack_tables(const double *x, int n) {
  const double *rows[n];
  term ts[n];
  for (int i = 0; i < n; i++) {
    rows[i] = x + (n - 1 - i);
    ts[i].weight = x[i] * x[i];
    ts[i].at = rows[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += ts[i].weight * ts[i].at[0] + sin(rows[i][0]) * (double)(sizeof rows / sizeof rows[0]);
  return s;
}

typedef double (*objective)(const double *, int);

static void point(double *x) {
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.3 * i - 0.15 * (i % 2);
}
static double central(objective f, double *x, int i) {
  double keep = x[i], h = 1e-6;
  x[i] = keep + h; double up = f(x, N);
  x[i] = keep - h; double dn = f(x, N);
  x[i] = keep;
  return (up - dn) / (2 * h);
}

#define GRADIENT_CHECKS(label, f)                                                   \
  do {                                                                              \
    double x[N], dx[N] = {0};                                                       \
    point(x);                                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);               \
    for (int i = 0; i < N; i++) {                                                   \
      double fd = central(f, x, i), e[N] = {0};                                     \
      e[i] = 1;                                                                     \
      check(label "_rev", i, dx[i], fd);                                            \
      check(label "_fwd", i, __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N), fd); \
    }                                                                               \
  } while (0)

int main(void) {
  GRADIENT_CHECKS("view", view_norm);
  GRADIENT_CHECKS("rows", row_products);
  GRADIENT_CHECKS("ptrs", reversed_pairs);
  GRADIENT_CHECKS("terms", weighted_terms);
  GRADIENT_CHECKS("record", one_record);
  GRADIENT_CHECKS("vla", stack_tables);
  GRADIENT_CHECKS("loop_record", per_iteration);
  GRADIENT_CHECKS("if_record", conditional_records);
  return failures ? 1 : 0;
}
