/* Custom rules: a straight-through estimator for round() registered as gradient (reverse) and derivative
   (forward), and an inactive logging function that stores into a global. Expected values are hand-derived:
   d/dx [ste_round(3x) * x] = 3x + round(3x) under the registered rules (round's true derivative is 0). */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double last_logged;
double ste_round(double x) { return round(x); }
double ste_round_fwd(double x, double dx) { return dx; }
void ste_round_aug(double x) {}
double ste_round_rev(double x, double grad) { return grad; }
void *__enzyme_register_gradient_ste_round[3] = {(void *)ste_round, (void *)ste_round_aug, (void *)ste_round_rev};
void *__enzyme_register_derivative_ste_round[2] = {(void *)ste_round, (void *)ste_round_fwd};

void log_value(double v) { last_logged = v; }
void *__enzyme_inactivefn_log = (void *)log_value;

double model(double x) {
  double r = ste_round(3.0 * x) * x;
  log_value(r);
  return r * exp(0.0 * x);
}

int main(void) {
  double xs[4] = {0.8, -1.3, 0.05, 2.45};
  for (int i = 0; i < 4; i++) {
    double x = xs[i], want = 3 * x + round(3 * x);
    printf("ste_rev %.12g %.12g\n", __enzyme_autodiff((void *)model, x), want);
    printf("ste_fwd %.12g %.12g\n", __enzyme_fwddiff((void *)model, x, 1.0), want);
    printf("logged %.12g %.12g\n", last_logged, round(3 * x) * x);
  }
  return 0;
}
