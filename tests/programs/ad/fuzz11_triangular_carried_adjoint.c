/* A triangular nest (inner loop from the outer index, outer step 2) accumulating into a scalar: in the reversed
   inner loop the adjoint of s is a loop-carried value and is also what the shadow of a[i0] (an element fixed in
   the loop) accumulates. Found by benchmarks/fuzz_ad.py: pgcc aborted ("Cannot destroy a value that still has
   uses", ad/shifted_adjoints.py kept a use of the replaced loop's argument). Prints "label derivative reference":
   reverse and forward mode along v against a central finite difference. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f(double *a, double x, int n) {
  double s = x;
  for (int i0 = 1; i0 < 5; i0 += 2) {
    for (int i1 = i0; i1 < n; i1++) { s += a[i0]; s += a[i1] * 0.5; }
    s *= cos(a[i0]);
  }
  return s;
}

int main(void) {
  double a0[6] = {0.3, -0.2, 0.5, 0.1, 0.7, -0.4}, a[6], da[6], v[6] = {0.4, 0.1, -0.7, 0.3, 0.2, 0.9};
  double vx = 0.3, x = 0.6, h = 1e-6;
  for (int i = 0; i < 6; i++) { a[i] = a0[i]; da[i] = 0; }
  double dx = __enzyme_autodiff((void *)f, a, da, x, 6);
  double rev = dx * vx;
  for (int i = 0; i < 6; i++) rev += da[i] * v[i];
  for (int i = 0; i < 6; i++) { a[i] = a0[i]; da[i] = v[i]; }
  double fwd = __enzyme_fwddiff((void *)f, a, da, x, vx, 6);
  for (int i = 0; i < 6; i++) a[i] = a0[i] + h * v[i];
  double fp = f(a, x + h * vx, 6);
  for (int i = 0; i < 6; i++) a[i] = a0[i] - h * v[i];
  double fm = f(a, x - h * vx, 6);
  printf("rev %.15g %.15g\n", rev, (fp - fm) / (2 * h));
  printf("fwd %.15g %.15g\n", fwd, (fp - fm) / (2 * h));
  return 0;
}
