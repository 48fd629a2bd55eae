/* A struct whose fields point at differentiated arrays: the shadow struct carries the shadow pointers (Enzyme's
   layout: `__enzyme_autodiff(f, &s, &ds)` with ds.a = da, ds.b = db). Reverse and forward mode against hand-derived
   values. Prints "label derivative reference"; aborts on a wrong derivative. */
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
    if (!(fabs(got_ - want_) <= 1e-7 * (1 + fabs(want_)))) abort();                     \
  } while (0)

typedef struct {
  double *a;
  double *b;
  int n;
  double scale;
} pair_view;

/* sum_i scale * a[i] * b[i] + sin(a[i]); scale is a differentiated field too */
double pair_energy(pair_view *s) {
  double e = 0;
  for (int i = 0; i < s->n; i++) e += s->scale * s->a[i] * s->b[i] + sin(s->a[i]);
  return e;
}

/* writes through the struct's pointers: b[i] = a[i]^2 * scale, returns nothing */
void pair_square(pair_view *s) {
  for (int i = 0; i < s->n; i++) s->b[i] = s->a[i] * s->a[i] * s->scale;
}

int main(void) {
  enum { N = 4 };
  double a[N] = {0.3, -1.2, 0.7, 2.0}, b[N] = {1.5, 0.4, -0.9, 0.25};
  double da[N] = {0}, db[N] = {0};
  pair_view s = {a, b, N, 1.75};
  pair_view ds = {da, db, N, 0.0};
  __enzyme_autodiff((void *)pair_energy, &s, &ds);
  for (int i = 0; i < N; i++) {
    APPROX_EQ("energy_da", i, da[i], s.scale * b[i] + cos(a[i]));
    APPROX_EQ("energy_db", i, db[i], s.scale * a[i]);
  }
  double dscale = 0;
  for (int i = 0; i < N; i++) dscale += a[i] * b[i];
  APPROX_EQ("energy_dscale", 0, ds.scale, dscale);

  /* forward: tangent of a in direction t, of scale in direction 0.5 */
  double ta[N] = {1.0, -2.0, 0.5, 3.0}, tb[N] = {0.1, 0.2, 0.3, 0.4};
  pair_view ts = {ta, tb, N, 0.5};
  double dir = __enzyme_fwddiff((void *)pair_energy, &s, &ts);
  double want = 0;
  for (int i = 0; i < N; i++)
    want += 0.5 * a[i] * b[i] + s.scale * (ta[i] * b[i] + a[i] * tb[i]) + cos(a[i]) * ta[i];
  APPROX_EQ("energy_fwd", 0, dir, want);

  /* reverse through writes: seed db = w, get da = 2 a scale w, dscale = sum a^2 w */
  double out[N], dout[N], da2[N] = {0};
  pair_view s2 = {a, out, N, 1.75}, ds2 = {da2, dout, N, 0.0};
  for (int i = 0; i < N; i++) dout[i] = i + 1.0;
  __enzyme_autodiff((void *)pair_square, &s2, &ds2);
  double dsc = 0;
  for (int i = 0; i < N; i++) {
    APPROX_EQ("square_da", i, da2[i], 2 * a[i] * s2.scale * (i + 1.0));
    APPROX_EQ("square_out", i, out[i], a[i] * a[i] * s2.scale);
    APPROX_EQ("square_dout", i, dout[i], 0.0);
    dsc += a[i] * a[i] * (i + 1.0);
  }
  APPROX_EQ("square_dscale", 0, ds2.scale, dsc);
  return 0;
}
