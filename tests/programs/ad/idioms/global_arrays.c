/* Global arrays in differentiated code: a global scratch array that carries active intermediates between two
   loops (Enzyme gives it a shadow), a constant global table of weights that stays inactive, a global array
   written by one helper and read by another, and an accumulator that persists between calls (the derivative
   never depends on earlier calls). Reverse and forward mode against hand-derived values. Prints "label
   derivative reference"; aborts on a wrong derivative. */
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
    if (!(fabs(got_ - want_) <= 1e-9 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 5
static const double weights[N] = {1.0, 0.5, 2.0, -1.0, 0.25};
double scratch[N];

/* scratch[i] = x[i]^2 * w[i]; result = sum scratch[i] * x[(i+1)%n] */
double through_scratch(const double *x) {
  for (int i = 0; i < N; i++) scratch[i] = x[i] * x[i] * weights[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += scratch[i] * x[(i + 1) % N];
  return s;
}

double hist[N];
static void deposit(const double *x) {
  for (int i = 0; i < N; i++) hist[i] = exp(x[i]);
}
static double collect(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += hist[N - 1 - i] * x[i];
  return s;
}
double two_calls(const double *x) {
  deposit(x);
  return collect(x);
}

/* an accumulator that persists between calls: its value on entry is a constant of each call */
double total[1];
double accumulate(double x) {
  total[0] += x * x;
  return total[0] * x;
}

int main(void) {
  double x[N] = {0.3, -0.8, 1.1, 0.5, -0.2}, dx[N] = {0};
  __enzyme_autodiff((void *)through_scratch, x, dx);
  double want[N] = {0};
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    want[i] += 2 * x[i] * weights[i] * x[j];
    want[j] += x[i] * x[i] * weights[i];
  }
  for (int i = 0; i < N; i++) APPROX_EQ("scratch", i, dx[i], want[i]);
  double v[N] = {1, -1, 0.5, 2, 0.25}, tv = 0;
  for (int i = 0; i < N; i++) tv += want[i] * v[i];
  APPROX_EQ("scratch_fwd", 0, __enzyme_fwddiff((void *)through_scratch, x, v), tv);
  APPROX_EQ("scratch_primal", 0, scratch[2], x[2] * x[2] * weights[2]);

  double dy[N] = {0};
  __enzyme_autodiff((void *)two_calls, x, dy);
  for (int i = 0; i < N; i++) {
    double w = exp(x[N - 1 - i]) + exp(x[i]) * x[N - 1 - i];
    APPROX_EQ("two_calls", i, dy[i], w);
  }
  /* d/dx [(t0 + x^2) x] = t0 + 3 x^2 on every call, whatever earlier calls left in the shadow */
  for (int k = 0; k < 3; k++) {
    double t0 = total[0], xk = 0.5 + k;
    APPROX_EQ("accumulate_rev", k, __enzyme_autodiff((void *)accumulate, xk), t0 + 3 * xk * xk);
    t0 = total[0];
    APPROX_EQ("accumulate_fwd", k, __enzyme_fwddiff((void *)accumulate, xk, 1.0), t0 + 3 * xk * xk);
  }
  return 0;
}
