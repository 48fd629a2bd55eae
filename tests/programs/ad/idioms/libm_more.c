/* More of libm in differentiated code: the inverse hyperbolic functions, the Bessel functions j0/j1/y0/y1,
   GNU's sincos (results through two pointers), and functions whose value is piecewise constant or an integer
   (rint, nearbyint, logb, lround, ilogb: derivative zero) mixed into smooth expressions. Reverse and forward
   mode against central differences, double and float. Prints "label derivative reference"; aborts on a wrong
   derivative. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodifff(void *, ...) __asm__("__enzyme_autodiff");

#define APPROX_EQ(label, i, got, want, tol)                                              \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= (tol) * (1 + fabs(want_)))) abort();                    \
  } while (0)

double hyperbolic(double x) { return asinh(x) * acosh(1 + x * x) + atanh(x / 3); }
double bessel(double x) { return j0(x) * x + j1(2 * x) - y0(x + 1) * y1(x + 2); }
double rotated(double x) {
  double s, c;
  sincos(3 * x, &s, &c);
  return s * s * x + c;
}
double stepped(double x) {
  return x * rint(x * 4) + nearbyint(x) * x * x + logb(x * 9) * x + (double)lround(x * 7) * sin(x) + ilogb(x * 5);
}
float hyperbolicf(float x) { return asinhf(x) * j0f(x) + atanhf(x / 3) + y1f(x + 1.0f); }

typedef double (*scalar)(double);

static void check(const char *label, scalar f, double x, double rev, double fwd) {
  double h = 1e-6, fd = (f(x + h) - f(x - h)) / (2 * h);
  APPROX_EQ(label, 0, rev, fd, 1e-6);
  APPROX_EQ(label, 1, fwd, fd, 1e-6);
}

#define BOTH(f, x) check(#f, f, x, __enzyme_autodiff((void *)f, x), __enzyme_fwddiff((void *)f, x, 1.0))

int main(void) {
  const double at[3] = {0.37, 0.81, 1.42};
  for (int k = 0; k < 3; k++) {
    double x = at[k] / 2;
    BOTH(hyperbolic, x);
    BOTH(bessel, at[k]);
    BOTH(rotated, at[k]);
    BOTH(stepped, at[k] + 0.01);
    float xf = (float)x;
    double v = xf, y = v + 1;  /* (the analytic derivative in double: float differences are too coarse) */
    APPROX_EQ("hyperbolicf", k, __enzyme_autodifff((void *)hyperbolicf, xf),
              j0(v) / sqrt(v * v + 1) - asinh(v) * j1(v) + (1.0 / 3) / (1 - v * v / 9) + y0(y) - y1(y) / y, 1e-5);
  }
  return 0;
}
