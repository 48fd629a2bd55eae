/* A counted loop with an early exit on a float computed from the loop counter (`if (i * 0.25 * a[0] > c) break;`):
   the loop's trip count is not a constant. Found by benchmarks/fuzz_ad.py: an internal compiler error ("Cannot
   cast type to IntegerType", ad/counted_loops.py evaluated a float computed from the loop counter as an
   integer). Checked with an exit on the third trip and on the last. Prints "label derivative reference": reverse
   and forward mode along v against a central finite difference. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f(double *a, double x, int n) {
  double s = x;
  for (int i = 0; i < 7; i += 2) {
    s = s * sin(x + a[i % n]) + a[1];
    if ((i * 0.25) * a[0] > 1.3) break; /* (a float of the loop counter in the exit test) */
  }
  return s;
}

static void check(const char *label, double a00) {
  double a0[3] = {a00, -0.2, 0.5}, a[3], da[3], v[3] = {0.4, 0.1, -0.7}, vx = 0.3, x = 0.6, h = 1e-6;
  for (int i = 0; i < 3; i++) { a[i] = a0[i]; da[i] = 0; }
  double dx = __enzyme_autodiff((void *)f, a, da, x, 3);
  double rev = dx * vx;
  for (int i = 0; i < 3; i++) rev += da[i] * v[i];
  for (int i = 0; i < 3; i++) { a[i] = a0[i]; da[i] = v[i]; }
  double fwd = __enzyme_fwddiff((void *)f, a, da, x, vx, 3);
  for (int i = 0; i < 3; i++) a[i] = a0[i] + h * v[i];
  double fp = f(a, x + h * vx, 3);
  for (int i = 0; i < 3; i++) a[i] = a0[i] - h * v[i];
  double fm = f(a, x - h * vx, 3);
  printf("%s_rev %.15g %.15g\n", label, rev, (fp - fm) / (2 * h));
  printf("%s_fwd %.15g %.15g\n", label, fwd, (fp - fm) / (2 * h));
}

int main(void) {
  check("third", 1.5);
  check("last", 0.9);
  return 0;
}
