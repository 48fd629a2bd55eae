/* realloc in differentiated code: a buffer grown by doubling inside the loop that fills it (forward mode), one
   enlarged once after its first elements are written, the recurrence then reading the moved values, and one
   enlarged twice (both modes); two malloc'd buffers swapped each time step (forward mode). Tangents and
   gradients against central finite differences. Prints "label derivative reference"; exits 1 when one is
   outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_fwddiff(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;

#define N 7
static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) failures++;
}

/* a dynamic array of squares grown as elements are appended */
double appended(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof(double));
    }
    buf[len++] = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += sin(buf[i]) * x[n - 1 - i];
  free(buf);
  return s;
}

/* two seeds, then room for the rest of a three-term recurrence */
double recurrence(const double *x, int n) {
  double *t = malloc(2 * sizeof(double));
  t[0] = x[0] * x[1];
  t[1] = x[1];
  t = realloc(t, n * sizeof(double));
  for (int i = 2; i < n; i++) t[i] = t[i - 1] * x[i] + 0.5 * t[i - 2];
  double r = t[n - 1] + t[1];
  free(t);
  return r;
}

/* grown twice, each time after writing what the next step reads */
double stepwise(const double *x, int n) {
  double *t = malloc(sizeof(double));
  t[0] = x[0] * x[0];
  t = realloc(t, 2 * sizeof(double));
  t[1] = t[0] * x[1] + cos(x[1]);
  t = realloc(t, n * sizeof(double));
  for (int i = 2; i < n; i++) t[i] = t[i - 1] * x[i] - t[i - 2] * 0.25;
  double r = t[n - 1] + t[0] * t[1];
  free(t);
  return r;
}

/* two malloc'd buffers swapped every time step (forward mode) */
double ping_pong(const double *x, int n) {
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = x[i];
  for (int t = 0; t < 3; t++) {
    for (int i = 1; i < n - 1; i++) b[i] = 0.25 * a[i - 1] + 0.5 * a[i] * a[i] + 0.25 * a[i + 1];
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  free(a);
  free(b);
  return s;
}

typedef double (*objective)(const double *, int);

static double central(objective f, double *x, int i) {
  double keep = x[i], h = 1e-6;
  x[i] = keep + h; double up = f(x, N);
  x[i] = keep - h; double dn = f(x, N);
  x[i] = keep;
  return (up - dn) / (2 * h);
}

#define TANGENT_CHECKS(label, f)                                                    \
  do {                                                                              \
    double x[N];                                                                    \
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i;                               \
    for (int i = 0; i < N; i++) {                                                   \
      double e[N] = {0};                                                            \
      e[i] = 1;                                                                     \
      check(label, i, __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N), central(f, x, i)); \
    }                                                                               \
  } while (0)

#define GRADIENT_CHECKS(label, f)                                                   \
  do {                                                                              \
    double x[N], dx[N] = {0};                                                       \
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i;                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);               \
    for (int i = 0; i < N; i++) check(label, i, dx[i], central(f, x, i));           \
  } while (0)

int main(void) {
  TANGENT_CHECKS("append", appended);
  TANGENT_CHECKS("recur", recurrence);
  TANGENT_CHECKS("steps", stepwise);
  TANGENT_CHECKS("swap", ping_pong);
  GRADIENT_CHECKS("recur_rev", recurrence);
  GRADIENT_CHECKS("steps_rev", stepwise);
  return failures ? 1 : 0;
}
