/* enzyme_dupnoneed: the primal value of a duplicated output is not needed after the call, only its shadow.
   Reverse mode (the seed in the output's shadow flows back into the inputs' shadows and is consumed) and forward
   mode (the output's shadow receives the tangent), with and without a returned value. Hand-derived references.
   Prints "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-9 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 4

/* out[i] = x[i] * y[i] + exp(x[i]) */
void combine(const double *x, const double *y, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = x[i] * y[i] + exp(x[i]);
}

/* out[0] = x[0]^2; returns x[1] * out[0] (out is read back after the write) */
double square_then_use(const double *x, double *out) {
  out[0] = x[0] * x[0];
  return x[1] * out[0];
}

int main(void) {
  double x[N] = {0.2, -0.5, 1.0, 0.75}, y[N] = {1.5, 2.0, -1.0, 0.5};
  double dx[N] = {0}, dy[N] = {0}, out[N], dout[N];
  for (int i = 0; i < N; i++) dout[i] = 1.0 + i;
  __enzyme_autodiff((void *)combine, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dupnoneed, out, dout,
                    enzyme_const, N);
  for (int i = 0; i < N; i++) {
    APPROX_EQ("rev_dx", i, dx[i], (y[i] + exp(x[i])) * (1.0 + i));
    APPROX_EQ("rev_dy", i, dy[i], x[i] * (1.0 + i));
    APPROX_EQ("rev_dout", i, dout[i], 0.0);
  }

  double tx[N] = {1, 0, -1, 2}, ty[N] = {0.5, 0.5, 0.5, 0.5}, tout[N] = {0};
  __enzyme_fwddiff((void *)combine, enzyme_dup, x, tx, enzyme_const, y, enzyme_dupnoneed, out, tout,
                   enzyme_const, N);
  for (int i = 0; i < N; i++) APPROX_EQ("fwd_const_y", i, tout[i], tx[i] * (y[i] + exp(x[i])));
  __enzyme_fwddiff((void *)combine, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_dupnoneed, out, tout,
                   enzyme_const, N);
  for (int i = 0; i < N; i++) APPROX_EQ("fwd_dup_y", i, tout[i], tx[i] * (y[i] + exp(x[i])) + x[i] * ty[i]);

  double o[1], d_o[1] = {0.0}, dxx[2] = {0};
  double xx[2] = {1.5, -0.5};
  __enzyme_autodiff((void *)square_then_use, enzyme_dup, xx, dxx, enzyme_dupnoneed, o, d_o);
  APPROX_EQ("use_d0", 0, dxx[0], 2 * xx[0] * xx[1]);
  APPROX_EQ("use_d1", 0, dxx[1], xx[0] * xx[0]);
  double txx[2] = {1.0, 1.0}, to[1] = {0};
  double t = __enzyme_fwddiff((void *)square_then_use, enzyme_dup, xx, txx, enzyme_dupnoneed, o, to);
  APPROX_EQ("use_fwd", 0, t, 2 * xx[0] * xx[1] + xx[0] * xx[0]);
  APPROX_EQ("use_fwd_out", 0, to[0], 2 * xx[0]);
  return 0;
}
