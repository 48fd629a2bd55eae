/* Derivatives of derivatives: a Hessian-vector product as forward mode over the reverse-mode gradient (against
   central differences of the gradient), and second derivatives of x^3 by forward and reverse over reverse. */
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
extern void __enzyme_fwddiff_v(void *, ...);
double f(double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n] + x[i] * x[i] * x[i]; return s; }
void grad(double *x, double *g, int n) { __enzyme_autodiff_v((void *)f, x, g, n); }
double cube(double x) { return x * x * x; }
double dcube(double x) { return __enzyme_autodiff((void *)cube, x); }
int main() {
  double x[3] = {0.3, 0.7, -0.4}, v[3] = {1, 0.5, -1}, g[3] = {0}, hv[3] = {0};
  /* Hessian-vector product: forward mode over the reverse-mode gradient */
  __enzyme_fwddiff_v((void *)grad, x, v, g, hv, 3);
  double h = 1e-5, gp[3] = {0}, gm[3] = {0}, xp[3], xm[3];
  for (int i = 0; i < 3; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }
  grad(xp, gp, 3); grad(xm, gm, 3);
  for (int i = 0; i < 3; i++) printf("hvp[%d] %.10g %.10g\n", i, hv[i], (gp[i] - gm[i]) / (2 * h));
  printf("d2cube %.10g %.10g\n", __enzyme_fwddiff((void *)dcube, 0.7, 1.0), 6 * 0.7);
  printf("d2cube_rev %.10g %.10g\n", __enzyme_autodiff((void *)dcube, 0.7), 6 * 0.7);
}
