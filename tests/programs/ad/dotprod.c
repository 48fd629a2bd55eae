/* Forward/reverse consistency (the dot-product test): for y = F(x) computed in place,
   <w, J v> from forward mode equals <J^T w, v> from reverse mode. Also a scalar function:
   the forward tangent in direction v equals <grad, v>. Prints "label forward reverse". */
#include <stdio.h>
#include <math.h>

extern int enzyme_const, enzyme_dup;
extern void __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff_d(void *, ...);

#define N 7

void step(double *x, double *tmp, double dt, int n) {
  for (int i = 0; i < n; i++) tmp[i] = x[i];
  for (int i = 1; i < n - 1; i++) x[i] = tmp[i] + dt * (tmp[i - 1] - 2 * tmp[i] + tmp[i + 1]) + dt * sin(tmp[i]) * tmp[i];
  x[0] = x[0] * cos(tmp[1]);
  for (int i = 0; i < n; i++) if (x[i] > 0.8) x[i] = sqrt(x[i]);
}

double energy(double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) e += exp(-(x[i] - x[j]) * (x[i] - x[j])) * x[i];
  return e;
}

int main(void) {
  double x0[N], x[N], tmp[N], dtmp[N], v[N], w[N], jv[N], jtw[N];
  for (int i = 0; i < N; i++) { x0[i] = 0.3 + 0.09 * i; v[i] = sin(1.0 + i); w[i] = cos(2.0 * i); }
  for (int i = 0; i < N; i++) { x[i] = x0[i]; jv[i] = v[i]; dtmp[i] = 0; }
  __enzyme_fwddiff((void *)step, enzyme_dup, x, jv, enzyme_dup, tmp, dtmp, enzyme_const, 0.1, N);
  for (int i = 0; i < N; i++) { x[i] = x0[i]; jtw[i] = w[i]; dtmp[i] = 0; }
  __enzyme_autodiff((void *)step, enzyme_dup, x, jtw, enzyme_dup, tmp, dtmp, enzyme_const, 0.1, N);
  double a = 0, b = 0;
  for (int i = 0; i < N; i++) { a += w[i] * jv[i]; b += jtw[i] * v[i]; }
  printf("step %.12g %.12g\n", a, b);

  double g[N];
  for (int i = 0; i < N; i++) g[i] = 0;
  __enzyme_autodiff((void *)energy, x0, g, N);
  double t = __enzyme_fwddiff_d((void *)energy, x0, v, N);
  double gv = 0;
  for (int i = 0; i < N; i++) gv += g[i] * v[i];
  printf("energy %.12g %.12g\n", t, gv);
  return 0;
}
