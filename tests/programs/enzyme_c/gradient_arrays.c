/* Gradients of several active scalars returned by __enzyme_autodiff into a struct whose members are arrays
   (`struct { double df[3]; }`, as C++ users of Enzyme write it) or a scalar followed by an array, read back by
   index in a loop; float and double. Against analytic values. Prints "label derivative reference" and exits 1
   when one is off. */
#include <math.h>
#include <stdio.h>

typedef struct { double df[3]; } grad3;
typedef struct { double dscale; double dx[2]; } grad_mixed;
typedef struct { float d[4]; } grad4f;

extern grad3 __enzyme_autodiff(void *, double, double, double);
extern grad_mixed __enzyme_autodiff_mixed(void *, double, double, double) __asm__("__enzyme_autodiff");
extern grad4f __enzyme_autodiff_f(void *, float, float, float, float) __asm__("__enzyme_autodiff");

static int failures;

static void check(const char *label, double got, double want, double tol) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) failures++;
}

double triple(double x, double y, double z) { return x * y * z + sin(x * z); }
double scaled_norm(double s, double x, double y) { return s * sqrt(x * x + y * y); }
float quartic(float a, float b, float c, float d) { return a * b + c * c * d + expf(d * 0.5f); }

int main(void) {
  for (int k = 1; k <= 3; k++) {
    double x = 0.5 * k, y = 1.5 - k, z = 0.25 * k + 1;
    grad3 g = __enzyme_autodiff((void *)triple, x, y, z);
    double want[3] = {y * z + z * cos(x * z), x * z, x * y + x * cos(x * z)};
    for (int i = 0; i < 3; i++) check("triple_df", g.df[i], want[i], 1e-12);
  }
  {
    double s = 2.5, x = 3.0, y = -4.0;
    grad_mixed g = __enzyme_autodiff_mixed((void *)scaled_norm, s, x, y);
    check("mixed_dscale", g.dscale, 5.0, 1e-12);
    check("mixed_dx0", g.dx[0], s * x / 5.0, 1e-12);
    check("mixed_dx1", g.dx[1], s * y / 5.0, 1e-12);
  }
  {
    float a = 1.5f, b = -2.0f, c = 0.75f, d = 1.25f;
    grad4f g = __enzyme_autodiff_f((void *)quartic, a, b, c, d);
    double want[4] = {b, a, 2 * c * d, c * c + 0.5 * exp(d * 0.5)};
    for (int i = 0; i < 4; i++) check("quartic_d", g.d[i], want[i], 1e-6);
  }
  return failures ? 1 : 0;
}
