/* enzyme_out scalars mixed with duplicated pointers, constants and a returned value: reverse mode returns the
   adjoints of the active scalars as a struct (in argument order), while pointers get theirs in shadows; a float
   variant returns one float gradient; a function whose result is a struct of doubles is not involved. Hand-derived
   references. Prints "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct { double d_alpha, d_beta, d_gamma; } grads3;
extern grads3 __enzyme_autodiff3(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodifff(void *, ...);

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-6 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 3

/* alpha * sum x[i] + beta * prod-like term + gamma^2 * k, with an int and a const array between */
double mixed(double alpha, const double *x, int k, double beta, const double *c, double gamma) {
  double s = 0, q = 1;
  for (int i = 0; i < N; i++) {
    s += x[i] * c[i];
    q *= 1 + beta * x[i];
  }
  return alpha * s + q + gamma * gamma * k;
}

float mixedf(float a, float *x, float b) { return a * x[0] * x[1] + sinf(b) * x[1]; }

int main(void) {
  double x[N] = {0.5, -1.0, 2.0}, c[N] = {1.0, 0.5, -0.5}, dx[N] = {0};
  double alpha = 1.5, beta = 0.3, gamma = -0.7;
  int k = 4;
  grads3 g = __enzyme_autodiff3((void *)mixed, enzyme_out, alpha, enzyme_dup, x, dx, enzyme_const, k, enzyme_out,
                                beta, enzyme_const, c, enzyme_out, gamma);
  double s = 0, q = 1, dq_dbeta = 0;
  for (int i = 0; i < N; i++) {
    s += x[i] * c[i];
    q *= 1 + beta * x[i];
  }
  for (int i = 0; i < N; i++) dq_dbeta += q / (1 + beta * x[i]) * x[i];
  APPROX_EQ("d_alpha", 0, g.d_alpha, s);
  APPROX_EQ("d_beta", 0, g.d_beta, dq_dbeta);
  APPROX_EQ("d_gamma", 0, g.d_gamma, 2 * gamma * k);
  for (int i = 0; i < N; i++) APPROX_EQ("dx", i, dx[i], alpha * c[i] + q / (1 + beta * x[i]) * beta);

  /* the same call without markers for the scalars (active by default) but beta constant */
  double dx2[N] = {0};
  typedef struct { double d_alpha, d_gamma; } grads2;
  extern grads2 __enzyme_autodiff2(void *, ...);
  grads2 h = __enzyme_autodiff2((void *)mixed, alpha, x, dx2, k, enzyme_const, beta, enzyme_const, c, gamma);
  APPROX_EQ("nomarker_alpha", 0, h.d_alpha, s);
  APPROX_EQ("nomarker_gamma", 0, h.d_gamma, 2 * gamma * k);
  for (int i = 0; i < N; i++) APPROX_EQ("nomarker_dx", i, dx2[i], dx[i]);

  float xf[2] = {0.5f, 2.0f}, dxf[2] = {0};
  float df = __enzyme_autodifff((void *)mixedf, enzyme_const, 3.0f, enzyme_dup, xf, dxf, enzyme_out, 0.25f);
  APPROX_EQ("float_db", 0, df, cosf(0.25f) * xf[1]);
  APPROX_EQ("float_dx0", 0, dxf[0], 3.0f * xf[1]);
  APPROX_EQ("float_dx1", 0, dxf[1], 3.0f * xf[0] + sinf(0.25f));
  return 0;
}
