/* Counted while loops of C with a step known only at run time (ad/while_to_for.py): `<` and `<=` against a
   bound, `bound > i`, unsigned counters, a counter whose final value is used after the loop, a loop nested in
   another one whose start is the outer counter; and the same strided loops inside `#pragma omp parallel for`
   (each iteration t walks t, t + p, ...: the CPU form of a grid-stride loop). Prints "label derivative
   reference": reverse and forward mode along a direction against central finite differences. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f(double *a, double x, int n, int k) {
  double s = x;
  for (int i = 1; i < n; i += k)
    s = s * 0.9 + sin(a[i] * s);
  for (int i = 0; i <= n - 2; i += k + 1)
    a[i] = a[i] * s + cos(a[i + 1]);
  int j = n - 1;
  while (n > j) { s += a[j] * a[j] * x; j += k; }
  for (unsigned u = 2; u < (unsigned)n; u += (unsigned)k)
    for (unsigned v = u; v < (unsigned)n; v += 2u * k)
      s += tanh(a[u] * a[v] + x);
  unsigned w = 0;
  for (; w <= (unsigned)n - 3; w += (unsigned)k)
    s += a[w] * 0.1;
  return s * (1.0 + 0.01 * j) + w * 0.05;
}

void g(const double *a, double *o, double x, int n, int p) {
#pragma omp parallel for
  for (int t = 0; t < p; t++) {
    for (int i = t; i <= n - 1; i += p)
      o[i] = o[i] * sin(a[i] * x) + a[(i + 1) % n];
    for (unsigned u = t; (unsigned)n > u; u += 2u * p)
      o[u] += tanh(o[u] * a[u] + x);
  }
}

double h_obj(const double *a, double *o, double x, int n, int p) {
  for (int i = 0; i < n; i++) o[i] = 0.5 + 0.1 * i;
  g(a, o, x, n, p);
  double r = 0;
  for (int i = 0; i < n; i++) r += o[i] * o[i] * (1.0 + 0.2 * i);
  return r;
}

#define N 11

int main(void) {
  double a0[N], a[N], da[N], v[N], vx = 0.3, x = 0.6, h = 1e-6;
  for (int i = 0; i < N; i++) { a0[i] = 0.4 * sin(1.1 * i + 0.3); v[i] = cos(0.6 * i); }
  for (int k = 1; k <= 4; k += 3) {
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = 0; }
    double dx = __enzyme_autodiff((void *)f, a, da, x, N, k);
    double rev = dx * vx;
    for (int i = 0; i < N; i++) rev += da[i] * v[i];
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = v[i]; }
    double fwd = __enzyme_fwddiff((void *)f, a, da, x, vx, N, k);
    for (int i = 0; i < N; i++) a[i] = a0[i] + h * v[i];
    double fp = f(a, x + h * vx, N, k);
    for (int i = 0; i < N; i++) a[i] = a0[i] - h * v[i];
    double fm = f(a, x - h * vx, N, k);
    printf("k%d_rev %.15g %.15g\n", k, rev, (fp - fm) / (2 * h));
    printf("k%d_fwd %.15g %.15g\n", k, fwd, (fp - fm) / (2 * h));
  }
  for (int p = 2; p <= 3; p++) {
    double o[N], d_o[N];
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = 0; d_o[i] = 0; }
    double dx = __enzyme_autodiff((void *)h_obj, a, da, o, d_o, x, N, p);
    double rev = dx * vx;
    for (int i = 0; i < N; i++) rev += da[i] * v[i];
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = v[i]; d_o[i] = 0; }
    double fwd = __enzyme_fwddiff((void *)h_obj, a, da, o, d_o, x, vx, N, p);
    for (int i = 0; i < N; i++) a[i] = a0[i] + h * v[i];
    double fp = h_obj(a, o, x + h * vx, N, p);
    for (int i = 0; i < N; i++) a[i] = a0[i] - h * v[i];
    double fm = h_obj(a, o, x - h * vx, N, p);
    printf("p%d_rev %.15g %.15g\n", p, rev, (fp - fm) / (2 * h));
    printf("p%d_fwd %.15g %.15g\n", p, fwd, (fp - fm) / (2 * h));
  }
  return 0;
}
