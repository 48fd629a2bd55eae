/* Enzyme's vector forward mode with pointer arguments: __enzyme_fwddiff(f, enzyme_width, W, ...) with the W
   shadows of a pointer interleaved at a byte stride (enzyme_dupv / enzyme_dupnoneedv, stride, ptr, dptrs) or
   passed one by one (enzyme_dup, ptr, d1..dW), constant pointers and integers, a floating-point result returned
   as a struct of W tangents, in double and float. The function may read what it writes (an in-place update): the
   primal runs once, as in Enzyme's one vector derivative. Each direction is checked against central finite
   differences along it. Prints "label derivative reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_width, enzyme_dup, enzyme_dupv, enzyme_dupnoneedv, enzyme_const;
extern void __enzyme_fwddiff(void *, ...);
typedef struct { double d[3]; } tangents3;
typedef struct { float a, b; } tangents2f;
extern tangents3 __enzyme_fwddiff_3(void *, ...);
extern tangents2f __enzyme_fwddiff_2f(void *, ...);

#define W 3
#define N 6

static int failures;

static void check(const char *label, int i, double got, double want, double tol) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) failures++;
}

/* a stencil into an output array, reading a constant weight table */
void blur(const double *x, double *out, const double *w, int n) {
  for (int i = 0; i < n; i++) out[i] = w[0] * x[i] * x[i] + w[1] * sin(x[(i + 1) % n]) - w[2] * x[(i + n - 1) % n];
}

/* an in-place recurrence: each element reads the one just written */
void sweep(double *x, int n) {
  for (int i = 1; i < n; i++) x[i] = x[i] * x[i - 1] + 0.5 * cos(x[i]);
}

/* a result of a loop with a branch and a data-dependent exit */
double energy(const double *x, double scale, int n) {
  double s = 0;
  int i = 0;
  while (i < n && x[i] < 50) {
    if (x[i] > 0) s += x[i] * x[i]; else s -= scale * x[i];
    i++;
  }
  return sqrt(s) * scale;
}

float dotf(const float *a, const float *b, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i] * a[i];
  return s;
}

/* direction k of the W stored interleaved in dx: dx[k * N + i] */
static double dir(int k, int i) { return (i == k) + 0.25 * ((i + k) % 3) - 0.1 * k; }

int main(void) {
  const double h = 1e-6, weights[3] = {0.5, 2.0, 0.75};
  double x[N], dx[W * N], out[N], dout[W * N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.65;
  for (int k = 0; k < W; k++)
    for (int i = 0; i < N; i++) dx[k * N + i] = dir(k, i);

  __enzyme_fwddiff((void *)blur, enzyme_width, W, enzyme_dupv, N * sizeof(double), x, dx,
                   enzyme_dupnoneedv, N * sizeof(double), out, dout, enzyme_const, weights, N);
  for (int k = 0; k < W; k++) {
    double xp[N], xm[N], op[N], om[N];
    for (int i = 0; i < N; i++) { xp[i] = x[i] + h * dir(k, i); xm[i] = x[i] - h * dir(k, i); }
    blur(xp, op, weights, N);
    blur(xm, om, weights, N);
    for (int i = 0; i < N; i++) check("blur", k * N + i, dout[k * N + i], (op[i] - om[i]) / (2 * h), 1e-6);
  }

  /* in place, the three shadows passed one by one */
  double y[N], y0[N], s[W][N];
  for (int i = 0; i < N; i++) { y[i] = 0.9 + 0.05 * i; for (int k = 0; k < W; k++) s[k][i] = dir(k, i); }
  memcpy(y0, y, sizeof y);
  __enzyme_fwddiff((void *)sweep, enzyme_width, W, enzyme_dup, y, s[0], s[1], s[2], N);
  for (int k = 0; k < W; k++) {
    double yp[N], ym[N];
    for (int i = 0; i < N; i++) { yp[i] = y0[i] + h * dir(k, i); ym[i] = y0[i] - h * dir(k, i); }
    sweep(yp, N);
    sweep(ym, N);
    for (int i = 0; i < N; i++) check("sweep", k * N + i, s[k][i], (yp[i] - ym[i]) / (2 * h), 1e-6);
  }
  double once[N];
  memcpy(once, y0, sizeof once);
  sweep(once, N);
  for (int i = 0; i < N; i++) check("sweep_primal", i, y[i], once[i], 0);  /* the primal ran once */

  /* a floating-point result: W tangents in a struct; the scalar's W tangents follow it */
  tangents3 t = __enzyme_fwddiff_3((void *)energy, enzyme_width, W, enzyme_dupv, N * sizeof(double), x, dx,
                                   1.5, 0.0, 1.0, -0.5, N);
  for (int k = 0; k < W; k++) {
    double xp[N], xm[N], ds = k == 0 ? 0.0 : k == 1 ? 1.0 : -0.5;
    for (int i = 0; i < N; i++) { xp[i] = x[i] + h * dir(k, i); xm[i] = x[i] - h * dir(k, i); }
    check("energy", k, t.d[k], (energy(xp, 1.5 + h * ds, N) - energy(xm, 1.5 - h * ds, N)) / (2 * h), 1e-6);
  }

  /* float, two directions of a with b constant */
  float a[N], b[N], da[2 * N];
  for (int i = 0; i < N; i++) { a[i] = 0.5f + 0.1f * i; b[i] = 1.0f - 0.2f * i; da[i] = 1; da[N + i] = (float)i; }
  tangents2f tf = __enzyme_fwddiff_2f((void *)dotf, enzyme_width, 2, enzyme_dupv, (long)(N * sizeof(float)), a, da,
                                      enzyme_const, b, N);
  double want[2] = {0, 0};
  for (int i = 0; i < N; i++) { want[0] += 2 * a[i] * b[i] * da[i]; want[1] += 2 * a[i] * b[i] * da[N + i]; }
  check("dotf", 0, tf.a, want[0], 1e-5);
  check("dotf", 1, tf.b, want[1], 1e-5);
  return failures != 0;
}
