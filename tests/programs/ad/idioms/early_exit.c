/* Loops that leave early: a break when a running sum passes a threshold, a return from inside the loop, a
   while loop whose exit depends on the differentiated values (Newton iterations until convergence), and a
   search loop that stops at the first negative element. Reverse and forward mode against central differences
   (the exits do not move under the small perturbation). Prints "label derivative reference"; aborts on a wrong
   derivative. */
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

#define N 8

/* product of x[i]^2 until the running sum exceeds 3 */
double until_threshold(const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > 3.0) break;
    p *= 1 + x[i] * s;
  }
  return p + s;
}

/* returns from inside the loop at the first negative element */
double first_negative(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) return acc * x[i];
    acc += sin(x[i]) * (i + 1);
  }
  return acc;
}

/* sqrt(a) by Newton's method until the step is tiny: while loop with a data-dependent exit */
double newton_sqrt(const double *x, int n) {
  double a = x[0] * x[0] + x[1];
  double r = a;
  int it = 0;
  while (fabs(r * r - a) > 1e-14 * a && it < 100) {
    r = 0.5 * (r + a / r);
    it++;
  }
  return r * x[2];
}

/* do-while over pairs, leaving when a pair product is negative */
double pairs(const double *x, int n) {
  int i = 0;
  double s = 0;
  do {
    double p = x[i] * x[i + 1];
    if (p < 0) break;
    s += p * p;
    i += 2;
  } while (i + 3 < n);
  return s + x[i];
}

/* Enzyme needs the differentiated function by name at each call: one macro expansion per function */
#define CHECK(label, f, x)                                                               \
  do {                                                                                  \
    double dx[N] = {0}, xp[N], xm[N], v[N], tv = 0, h = 1e-6;                           \
    __enzyme_autodiff((void *)f, x, dx, N);                                             \
    for (int i = 0; i < N; i++) {                                                       \
      for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];                                 \
      xp[i] += h;                                                                       \
      xm[i] -= h;                                                                       \
      APPROX_EQ(label, i, dx[i], (f(xp, N) - f(xm, N)) / (2 * h));                      \
      v[i] = 0.5 - 0.25 * i;                                                            \
      tv += dx[i] * v[i];                                                               \
    }                                                                                   \
    APPROX_EQ(label, 100, __enzyme_fwddiff((void *)f, x, v, N), tv);                    \
  } while (0)

int main(void) {
  double x[N] = {0.9, -0.4, 1.1, 0.6, -1.3, 0.2, 0.8, 0.5};
  double y[N] = {0.9, 0.4, 1.1, 0.6, 1.3, -0.2, 0.8, 0.5};
  double z[N] = {0.7, 0.4, 1.1, 0.6, 1.3, 0.2, 0.8, 0.5};
  CHECK("threshold", until_threshold, x);
  CHECK("negative", first_negative, y);
  CHECK("negative_none", first_negative, z);
  CHECK("newton", newton_sqrt, z);
  CHECK("pairs", pairs, y);
  CHECK("pairs_all", pairs, z);
  return 0;
}
