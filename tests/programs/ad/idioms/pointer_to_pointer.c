/* Arrays of row pointers passed in (double **m with a shadow double **dm whose rows are the shadow rows), as
   Enzyme's tests pass matrices: a weighted sum of squares over a ragged triangle, and a product that writes
   through one row pointer array into another. Reverse and forward mode against hand-derived values. Prints "label
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
    if (!(fabs(got_ - want_) <= 1e-8 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define R 3

/* row i has i+1 entries: sum_i sum_{j<=i} (i+1) m[i][j]^2 + m[i][0] * m[R-1][i] */
double triangle(double **m, int rows) {
  double s = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j <= i; j++) s += (i + 1) * m[i][j] * m[i][j];
    s += m[i][0] * m[rows - 1][i];
  }
  return s;
}

/* out[i][0] = in[i][0] * in[i][i] (rows of out are separate pointers) */
void diag_products(double **in, double **out, int rows) {
  for (int i = 0; i < rows; i++) out[i][0] = in[i][0] * in[i][i];
}

int main(void) {
  double r0[1] = {0.5}, r1[2] = {-1.0, 2.0}, r2[3] = {0.25, 1.5, -0.5};
  double d0[1] = {0}, d1[2] = {0}, d2[3] = {0};
  double *m[R] = {r0, r1, r2}, *dm[R] = {d0, d1, d2};
  __enzyme_autodiff((void *)triangle, m, dm, R);
  /* hand derivative */
  double want[R][R] = {{0}};
  for (int i = 0; i < R; i++) {
    for (int j = 0; j <= i; j++) want[i][j] += 2 * (i + 1) * m[i][j];
    want[i][0] += m[R - 1][i];
    want[R - 1][i] += m[i][0];
  }
  int k = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j <= i; j++) APPROX_EQ("triangle", k++, dm[i][j], want[i][j]);

  /* forward: tangent rows */
  double t0[1] = {1}, t1[2] = {0.5, -1}, t2[3] = {2, 0, 1};
  double *tm[R] = {t0, t1, t2};
  double tan = __enzyme_fwddiff((void *)triangle, m, tm, R);
  double tw = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j <= i; j++) tw += want[i][j] * tm[i][j];
  APPROX_EQ("triangle_fwd", 0, tan, tw);

  double o0[1], o1[1], o2[1], do0[1] = {1.0}, do1[1] = {2.0}, do2[1] = {-3.0};
  double *o[R] = {o0, o1, o2}, *dout[R] = {do0, do1, do2};
  for (int i = 0; i < R; i++)
    for (int j = 0; j <= i; j++) dm[i][j] = 0;
  __enzyme_autodiff((void *)diag_products, m, dm, o, dout, R);
  double seed[R] = {1.0, 2.0, -3.0};
  APPROX_EQ("diag_00", 0, dm[0][0], 2 * m[0][0] * seed[0]);
  for (int i = 1; i < R; i++) {
    APPROX_EQ("diag_i0", i, dm[i][0], m[i][i] * seed[i]);
    APPROX_EQ("diag_ii", i, dm[i][i], m[i][0] * seed[i]);
    APPROX_EQ("diag_seed", i, dout[i][0], 0.0);
  }
  return 0;
}
