/* Reverse and forward derivatives of scalar functions against central finite differences.
   Prints "label derivative finite-difference" per line. */
#include <stdio.h>
#include <math.h>

extern int enzyme_const, enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f_sin(double x) { return sin(x) * cos(2.0 * x); }
double f_exp(double x) { return exp(x / 3.0) - log(x + 2.0); }
double f_pow(double x) { return pow(x, 3.5) + sqrt(x * x + 1.0); }
double f_tanh(double x) { return tanh(x) * fabs(x - 0.1); }
double f_div(double x) { return (x * x + 1.0) / (x - 3.0); }
double f_atan(double x) { return atan2(x, 1.5) + atan(x * x) + erf(x); }
double f_more(double x) { return log1p(x * x) + expm1(x) + cbrt(x + 2.0) + log10(x + 4.0) + sinh(x) * cosh(x); }
double f_minmax(double x) { return fmax(x, 0.2) * fmin(x * x, 1.0); }
float f_float(float x) { return sinf(x) * x + expf(-x); }
double f_cast(double x) { int k = (int)(x * 10.0); return x * k + (double)k; }

double relu3(double x) {
  if (x > 0) return x * x * x;
  return 0.0;
}

#define H 1e-6
#define FD(f, x) ((f((x) + H) - f((x) - H)) / (2 * H))
#define CHECK(f, x)                                                                       \
  printf("%s_rev %.10g %.10g\n", #f + 2, __enzyme_autodiff((void *)f, x), FD(f, x));      \
  printf("%s_fwd %.10g %.10g\n", #f + 2, __enzyme_fwddiff((void *)f, x, 1.0), FD(f, x))

int main(void) {
  double xs[3] = {0.37, 1.3, 2.2};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK(f_sin, x);
    CHECK(f_exp, x);
    CHECK(f_pow, x);
    CHECK(f_tanh, x);
    CHECK(f_div, x);
    CHECK(f_atan, x);
    CHECK(f_more, x);
    CHECK(f_minmax, x);
    printf("cast_rev %.10g %.10g\n", __enzyme_autodiff((void *)f_cast, x + 0.01), FD(f_cast, x + 0.01));
    float xf = (float)x;
    printf("float_rev %.6g %.6g\n", (double)__enzyme_autodiff((void *)f_float, xf),
           (double)((f_float(xf + 1e-2f) - f_float(xf - 1e-2f)) / 2e-2f));
  }
  /* hand-derived: relu3'(x) = 3x^2 for x > 0, else 0 */
  double pts[4] = {-1.5, -0.2, 0.5, 2.0};
  for (int i = 0; i < 4; i++) {
    double x = pts[i];
    double want = x > 0 ? 3 * x * x : 0.0;
    printf("relu3_rev %.10g %.10g\n", __enzyme_autodiff((void *)relu3, x), want);
    printf("relu3_fwd %.10g %.10g\n", __enzyme_fwddiff((void *)relu3, x, 1.0), want);
  }
  return 0;
}
