/* __enzyme_fwddiff with several duplicated arguments (pointers and scalars mixed with constants): the returned
   tangent and the tangents written into duplicated outputs, against hand-derived values and against reverse mode
   (dot-product test <J v, w> = <v, J^T w>). Prints "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct { double da, db; } pair;
extern pair __enzyme_autodiff_pair(void *, ...);

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-9 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 4

/* z[i] = a * x[i] * y[i] + c[i]; returns sum z[i]^2 * b */
double axpy_norm(double a, const double *x, const double *y, const double *c, double *z, double b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    z[i] = a * x[i] * y[i] + c[i];
    s += z[i] * z[i];
  }
  return s * b;
}

int main(void) {
  double a = 0.7, b = -1.3;
  double x[N] = {1.0, -0.5, 2.0, 0.25}, y[N] = {0.5, 1.5, -1.0, 3.0}, c[N] = {0.1, 0.2, 0.3, 0.4};
  double z[N], tz[N] = {0};
  double ta = 0.5, tb = 2.0, tx[N] = {1, -1, 0.5, 0}, ty[N] = {0, 2, 1, -1};
  double t = __enzyme_fwddiff((void *)axpy_norm, a, ta, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, c,
                              enzyme_dup, z, tz, b, tb, N);
  double s = 0, ts = 0;
  for (int i = 0; i < N; i++) {
    double zi = a * x[i] * y[i] + c[i];
    double tzi = ta * x[i] * y[i] + a * tx[i] * y[i] + a * x[i] * ty[i];
    APPROX_EQ("fwd_z", i, tz[i], tzi);
    APPROX_EQ("fwd_primal", i, z[i], zi);
    s += zi * zi;
    ts += 2 * zi * tzi;
  }
  APPROX_EQ("fwd_ret", 0, t, ts * b + s * tb);

  /* reverse: seed the return with 1 and the z outputs with w */
  double dx[N] = {0}, dy[N] = {0}, dz[N] = {0.3, -0.2, 0.1, 1.0};
  double w[N];
  for (int i = 0; i < N; i++) w[i] = dz[i];
  pair gr = __enzyme_autodiff_pair((void *)axpy_norm, enzyme_out, a, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                   enzyme_const, c, enzyme_dup, z, dz, enzyme_out, b, enzyme_const, N);
  /* <v, J^T seed> with v = (ta, tx, ty, tb) equals <seed, J v> = t + <w, tz> */
  double lhs = gr.da * ta + gr.db * tb;
  for (int i = 0; i < N; i++) lhs += dx[i] * tx[i] + dy[i] * ty[i];
  double rhs = t;
  for (int i = 0; i < N; i++) rhs += w[i] * tz[i];
  APPROX_EQ("dot_product", 0, lhs, rhs);
  APPROX_EQ("rev_db", 0, gr.db, s);
  return 0;
}
