/* __attribute__((enzyme_shadow(s))) on globals: the program's own global s is the shadow. Reverse mode adds the
   adjoints of the global's values into it (two calls accumulate: pgcc does not zero it), forward mode reads the
   tangent of the global's values from it. A scalar weight and an array of coefficients. Prints "label derivative
   reference" and aborts when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double weight_shadow;
__attribute__((enzyme_shadow(weight_shadow))) double weight = 1.5;
double coef_shadow[3];
__attribute__((enzyme_shadow(coef_shadow))) double coef[3] = {0.5, -1.0, 2.0};

double model(double x) {
  double p = coef[0] + x * (coef[1] + x * coef[2]);
  return weight * sin(p) + coef[1] * x;
}

static int bad = 0;
static void row(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) bad = 1;
}

int main(void) {
  const double x = 0.7, h = 1e-6;
  double p = coef[0] + x * (coef[1] + x * coef[2]);
  double dx = __enzyme_autodiff((void *)model, x);
  row("dx", dx, weight * cos(p) * (coef[1] + 2 * x * coef[2]) + coef[1]);
  row("dweight", weight_shadow, sin(p));
  for (int k = 0; k < 3; k++) {
    double keep = coef[k];
    coef[k] = keep + h;
    double up = model(x);
    coef[k] = keep - h;
    double down = model(x);
    coef[k] = keep;
    char label[16];
    snprintf(label, sizeof label, "dcoef%d", k);
    row(label, coef_shadow[k], (up - down) / (2 * h));
  }
  __enzyme_autodiff((void *)model, x);  /* the shadows accumulate */
  row("dweight_twice", weight_shadow, 2 * sin(p));
  /* forward mode: the tangent of weight is weight_shadow, of coef coef_shadow */
  weight_shadow = 1.0;
  for (int k = 0; k < 3; k++) coef_shadow[k] = 0;
  row("tweight", __enzyme_fwddiff((void *)model, x, 0.0), sin(p));
  weight_shadow = 0;
  coef_shadow[2] = 1.0;
  row("tcoef2", __enzyme_fwddiff((void *)model, x, 0.0), weight * cos(p) * x * x);
  if (bad) abort();
  return 0;
}
