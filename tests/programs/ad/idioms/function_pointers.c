/* Functions passed by pointer into the differentiated code: a higher-order helper applied to a libm function
   and to a function of this file, a table of step functions picked by a constant index, and a constant global
   function pointer. Enzyme differentiates them after LLVM has made the calls direct; pgcc does so after
   inlining. Reverse and forward mode against central differences. Prints "label derivative reference"; aborts
   on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-5 * (1 + fabs(want_)))) abort();                     \
  } while (0)

typedef double (*unary)(double);

static double apply_twice(unary f, double v) { return f(f(v)); }
static double damped(double v) { return v * exp(-0.5 * v); }
static double fold(const double *x, int n, unary f) {
  double s = 0;
  for (int i = 0; i < n; i++) s = s * 0.5 + f(x[i]);
  return s;
}

/* sin(sin(x0)) * x1 + damped(damped(x1)) */
double composed(const double *x, int n) { (void)n; return apply_twice(sin, x[0]) * x[1] + apply_twice(damped, x[1]); }

static const unary steps[3] = {tanh, damped, cbrt};
/* a running fold of each element through the first two table entries */
double tabled(const double *x, int n) { return fold(x, n, steps[0]) * fold(x, n, steps[1]); }

static const unary smoother = log1p;
double through_global(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += smoother(x[i] * x[i]) * (i + 1);
  return s;
}

typedef double (*objective)(const double *, int);
#define N 5

static void check(const char *label, objective f, const double *x, const double *grad) {
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-6;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    APPROX_EQ(label, i, grad[i], (f(xp, N) - f(xm, N)) / (2 * h));
  }
}

#define BOTH_MODES(f)                                                                   \
  do {                                                                                  \
    double x[N] = {0.7, 1.3, -0.4, 0.9, 2.1}, d[N] = {0}, t[N];                          \
    __enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, N);                    \
    check(#f, f, x, d);                                                                 \
    for (int k = 0; k < N; k++) {                                                       \
      double e[N] = {0};                                                                \
      e[k] = 1;                                                                         \
      t[k] = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N);            \
    }                                                                                   \
    check(#f "_fwd", f, x, t);                                                          \
  } while (0)

int main(void) {
  BOTH_MODES(composed);
  BOTH_MODES(tabled);
  BOTH_MODES(through_global);
  return 0;
}
