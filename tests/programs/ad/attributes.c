/* Enzyme's source attributes (issue 19): enzyme_inactive on functions and globals, enzyme_function_like on a
   function (its calls are differentiated with the derivative rule of the named math function, at the call's
   arguments, the call's result standing for the math function's) and its global form __enzyme_function_like.
   Each line prints "label derivative reference"; main returns 1 when one is off. Before these were read, the
   bodies were differentiated instead (inactive: 2 instead of 0; log1p-like: 2 instead of 1/3). */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

#define ENZYME_INACTIVE __attribute__((enzyme_inactive))

__attribute__((enzyme_inactive)) double scale_of(double x) { return 2 * x; }
ENZYME_INACTIVE double clamp_hint(double x) { return x > 1 ? 1 : x; }
__attribute__((enzyme_inactive)) double last_value;
double log1p_like(double a) __attribute__((enzyme_function_like("log1p")));
double log1p_like(double a) { return 2 * a; }  /* deliberately not log1p: the rule must come from the attribute */
float sin_like(float a) __attribute__((enzyme_function_like("sinf")));
float sin_like(float a) { return a; }
double exp_like(double a) { return 1 + a + a * a / 2; }
void *__enzyme_function_like[2] = {(void *)exp_like, "exp"};

/* the registration forms of the same: __enzyme_inactive_global_<name>, __enzyme_inactivenoblockfn_<name> */
double scratch[4];
void *__enzyme_inactive_global_scratch = (void *)&scratch;
double noisy(double x) { return x * 5; }
void *__enzyme_inactivenoblockfn_noisy = (void *)noisy;
double use_registered(double x) { scratch[0] = x * x; return x * 3 + noisy(x); }

#if 0
__attribute__((enzyme_not_an_attribute)) double skipped(double x);  /* the preprocessor skips this */
#endif

double use_inactive(double x) { return scale_of(x) + clamp_hint(x) * 0 + x * x; }
double use_global(double x) { last_value = x * x; return 3 * x; }
double use_log1p(double x) { return log1p_like(x); }
double use_mixed(double x) { return log1p_like(x * x) * x; }
float use_sin(float x) { return sin_like(x) * 2; }
double use_exp(double x) { return exp_like(x) * x; }

static int fails = 0;
static void check(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (fabs(got - want) > 1e-6 * (1 + fabs(want))) fails++;
}

int main(void) {
  double x = 2.0;
  check("inactive_rev", __enzyme_autodiff((void *)use_inactive, x), 2 * x);
  check("inactive_fwd", __enzyme_fwddiff((void *)use_inactive, x, 1.0), 2 * x);
  check("global_rev", __enzyme_autodiff((void *)use_global, x), 3);
  check("global_fwd", __enzyme_fwddiff((void *)use_global, x, 1.0), 3);
  check("global_value", last_value, x * x);
  check("log1p_rev", __enzyme_autodiff((void *)use_log1p, x), 1 / 3.0);
  check("log1p_fwd", __enzyme_fwddiff((void *)use_log1p, x, 1.0), 1 / 3.0);
  double y = 0.7;  /* d/dy [L(y^2) * y] with L' = 1/(1+u) and L(u) = 2u */
  check("mixed_rev", __enzyme_autodiff((void *)use_mixed, y), 2 * y * y / (1 + y * y) + 2 * y * y);
  check("sin_rev", __enzyme_autodiff_f((void *)use_sin, 0.5f), 2 * cos(0.5));
  double z = 0.3, e = exp_like(z);  /* exp's rule with the call's result: d/dz [E(z) z] = E(z) z + E(z) */
  check("exp_rev", __enzyme_autodiff((void *)use_exp, z), e * z + e);
  check("exp_fwd", __enzyme_fwddiff((void *)use_exp, z, 1.0), e * z + e);
  check("registered_rev", __enzyme_autodiff((void *)use_registered, x), 3);
  check("registered_fwd", __enzyme_fwddiff((void *)use_registered, x, 1.0), 3);
  return fails ? 1 : 0;
}
