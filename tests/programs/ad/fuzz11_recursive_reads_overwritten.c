/* A recursive function that only reads an array, called in a loop whose next statement overwrites that array:
   the call is taped (its memory changes after it), and so must be the recursive calls inside its augmented
   forward, since the caller's write comes before their reverse too. Found by benchmarks/fuzz_ad.py: the inner
   calls re-read the overwritten array in the reverse sweep, a wrong gradient with no error. Prints "label
   derivative reference": reverse and forward mode along v against a central finite difference. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double rsum(const double *p, double c, int n) { return n <= 0 ? c : p[0] * 0.5 + sin(rsum(p + 1, c * 0.9, n - 1)); }

double f(double *a, double x, int n) {
  double s = x;
  for (int i = 0; i < n; i++) { s = rsum(a, s, n); a[i] = s; }
  return s;
}

/* the write after the call is two levels up: a helper calling the recursion, then the caller's store */
static double mid(const double *p, double c, int n) { return rsum(p, c, n) * cos(c); }
double g(double *a, double x, int n) {
  double s = x;
  for (int i = 0; i < n; i++) { s = mid(a, s, n) + 0.1 * a[i]; a[n - 1 - i] *= s; }
  return s;
}

#define N 3
#define CHECK(label, fn)                                                                                     \
  do {                                                                                                       \
    double a0[N] = {0.3, -0.2, 0.5}, a[N], da[N], v[N] = {0.4, 0.1, -0.7}, vx = 0.3, x = 0.6, h = 1e-6;      \
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = 0; }                                                \
    double dx = __enzyme_autodiff((void *)fn, a, da, x, N);                                                 \
    double rev = dx * vx;                                                                                    \
    for (int i = 0; i < N; i++) rev += da[i] * v[i];                                                        \
    for (int i = 0; i < N; i++) { a[i] = a0[i]; da[i] = v[i]; }                                             \
    double fwd = __enzyme_fwddiff((void *)fn, a, da, x, vx, N);                                             \
    for (int i = 0; i < N; i++) a[i] = a0[i] + h * v[i];                                                    \
    double fp = fn(a, x + h * vx, N);                                                                        \
    for (int i = 0; i < N; i++) a[i] = a0[i] - h * v[i];                                                    \
    double fm = fn(a, x - h * vx, N);                                                                        \
    printf("%s_rev %.15g %.15g\n", label, rev, (fp - fm) / (2 * h));                                         \
    printf("%s_fwd %.15g %.15g\n", label, fwd, (fp - fm) / (2 * h));                                        \
  } while (0)

int main(void) {
  CHECK("f", f);
  CHECK("g", g);
  return 0;
}
