/* float and double mixed: float arrays with double accumulators, float scalars promoted in double arithmetic
   and rounded back, float math functions (expf, logf, sqrtf, tanhf), and a double function of a float array.
   Reverse and forward mode against hand-derived values (float tolerance where the result is a float). Prints
   "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodifff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddifff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;

#define APPROX_EQ(label, i, got, want, tol)                                              \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= (tol) * (1 + fabs(want_)))) abort();                    \
  } while (0)

#define N 4

/* double accumulation over a float array: sum (double)x[i]^2 * exp(x[i]) */
double dsum(const float *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += (double)x[i] * x[i] * exp((double)x[i]);
  return s;
}

/* float result through float math */
float fmath(float a, float b) { return tanhf(a) * logf(b) + sqrtf(a * a + b * b) * expf(-a); }

/* float array written from double computations */
void to_float(const double *x, float *y) {
  for (int i = 0; i < N; i++) y[i] = (float)(x[i] * x[i] * 0.5);
}

int main(void) {
  float xf[N] = {0.5f, -0.25f, 1.0f, 0.75f}, dxf[N] = {0};
  __enzyme_autodiff((void *)dsum, xf, dxf);
  for (int i = 0; i < N; i++) {
    double x = xf[i];
    APPROX_EQ("dsum", i, dxf[i], (2 * x + x * x) * exp(x), 1e-6);
  }
  float tf[N] = {1, 1, 1, 1};
  double tw = 0;
  for (int i = 0; i < N; i++) tw += (2.0 * xf[i] + (double)xf[i] * xf[i]) * exp((double)xf[i]);
  APPROX_EQ("dsum_fwd", 0, __enzyme_fwddiff((void *)dsum, xf, tf), tw, 1e-6);

  float a = 0.6f, b = 1.7f;
  typedef struct { float da, db; } gf;
  extern gf __enzyme_autodiff_f2(void *, ...);
  gf g = __enzyme_autodiff_f2((void *)fmath, a, b);
  double r = sqrt((double)a * a + (double)b * b);
  double wa = (1 - tanh(a) * tanh(a)) * log(b) + a / r * exp(-a) - r * exp(-a);
  double wb = tanh(a) / b + b / r * exp(-a);
  APPROX_EQ("fmath_da", 0, g.da, wa, 1e-4);
  APPROX_EQ("fmath_db", 0, g.db, wb, 1e-4);
  float ta = __enzyme_fwddifff((void *)fmath, a, 1.0f, b, 0.0f);
  APPROX_EQ("fmath_fwd_a", 0, ta, wa, 1e-4);
  float tb = __enzyme_fwddifff((void *)fmath, a, 0.0f, b, 1.0f);
  APPROX_EQ("fmath_fwd_b", 0, tb, wb, 1e-4);

  double x[N] = {0.5, 1.5, -2.0, 0.1}, dx[N] = {0};
  float y[N], dy[N] = {1.0f, 2.0f, 3.0f, 4.0f};
  __enzyme_autodiff((void *)to_float, x, dx, y, dy);
  for (int i = 0; i < N; i++) APPROX_EQ("to_float", i, dx[i], x[i] * (i + 1.0), 1e-6);
  return 0;
}
