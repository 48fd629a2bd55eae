/* Loop forms as C programs write them: counting down, a variable step, a doubling index (a while loop), an
   unsigned counter. Both modes against central finite differences. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double down(double *a, int n) { double s = 1; for (int i = n - 1; i >= 0; i--) s = s * a[i] + sin(s); return s; }
double vstep(double *a, int n, int k) {
  double s = 0;
  for (int i = 0; i < n; i += k) s += a[i] * a[i] * s + a[i];
  return s;
}
double doubling(double *a, int n) { double s = 0; for (int i = 1; i < n; i *= 2) s += cos(a[i] * s) + a[i]; return s; }
double chain(double *a, int n) {
  double s = 0;
  for (unsigned i = 0; i < (unsigned)n; i++) s += a[i] / (1 + s * s);
  return s;
}

#define H 1e-6
#define CK(name, ...)                                                                              \
  {                                                                                                \
    double da[9] = {0};                                                                            \
    __enzyme_autodiff((void *)name, a, da, __VA_ARGS__);                                           \
    for (int i = 0; i < 9; i++) {                                                                  \
      double s = a[i];                                                                             \
      a[i] = s + H; double fp = name(a, __VA_ARGS__);                                              \
      a[i] = s - H; double fm = name(a, __VA_ARGS__);                                              \
      a[i] = s;                                                                                    \
      double v[9] = {0};                                                                           \
      v[i] = 1;                                                                                    \
      printf("%s_rev[%d] %.10g %.10g\n", #name, i, da[i], (fp - fm) / (2 * H));                    \
      printf("%s_fwd[%d] %.10g %.10g\n", #name, i, __enzyme_fwddiff((void *)name, a, v, __VA_ARGS__), \
             (fp - fm) / (2 * H));                                                                 \
    }                                                                                              \
  }

int main(void) {
  double a[9] = {0.1, 0.5, -0.3, 0.7, 0.2, 0.9, -0.4, 0.6, 0.8};
  CK(down, 9)
  CK(vstep, 9, 2)
  CK(doubling, 9)
  CK(chain, 9)
  return 0;
}
