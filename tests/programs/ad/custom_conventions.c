/* Custom rules with Enzyme's calling convention (issue 19). A function returning through an out-pointer:
   its forward rule takes (src, d_src, dest, d_dest); its augmented forward takes the same, is called once per
   call in the forward sweep instead of the function, and returns a tape that the reverse rule receives last:
   (src, d_src, dest, d_dest, tape). Scalar functions: the forward rule returns the tangent, the reverse rule
   takes the result's differential and returns the adjoints of the active scalars (a struct for two).
   Each line prints "label derivative reference"; main returns 1 when one is off. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

int primal_calls = 0, aug_calls = 0, rev_calls = 0, fwd_calls = 0;

/* y = x^3 through pointers */
void cube_(const double *src, double *dest) { primal_calls++; *dest = *src * *src * *src; }
void *cube_aug(const double *src, const double *d_src, double *dest, double *d_dest) {
  aug_calls++;
  *dest = *src * *src * *src;
  double *tape = malloc(sizeof(double));
  *tape = 3 * *src * *src;  /* the local derivative, kept for the reverse rule */
  return tape;
}
void cube_rev(const double *src, double *d_src, const double *dest, double *d_dest, void *tape) {
  rev_calls++;
  *d_src += *(double *)tape * *d_dest;
  *d_dest = 0;
  free(tape);
}
void cube_fwd(const double *src, const double *d_src, double *dest, double *d_dest) {
  fwd_calls++;
  *dest = *src * *src * *src;
  *d_dest = 3 * *src * *src * *d_src;
}
void *__enzyme_register_gradient_cube_[3] = {(void *)cube_, (void *)cube_aug, (void *)cube_rev};
void *__enzyme_register_derivative_cube_[2] = {(void *)cube_, (void *)cube_fwd};

double cube(double x) { double y; cube_(&x, &y); return y; }
double cubes(double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { cube_(&x[i], &y[i]); s += y[i] * (i + 1); }
  return s;
}

/* scalar rules: the augmented forward returns the primal result (the function itself is not called) */
double soft(double x) { primal_calls++; return log(1 + exp(x)); }
double soft_aug(double x) { aug_calls++; return log(1 + exp(x)); }
double soft_rev(double x, double d_ret) { rev_calls++; return d_ret / (1 + exp(-x)); }
double soft_fwd(double x, double dx) { fwd_calls++; return dx / (1 + exp(-x)); }
void *__enzyme_register_gradient_soft[3] = {(void *)soft, (void *)soft_aug, (void *)soft_rev};
void *__enzyme_register_derivative_soft[2] = {(void *)soft, (void *)soft_fwd};
double use_soft(double x) { return soft(2 * x) * x; }

/* two active scalars: the reverse rule returns both adjoints as a struct */
typedef struct { double da, db; } pair;
double mul(double a, double b) { primal_calls++; return a * b; }
double mul_aug(double a, double b) { aug_calls++; return a * b; }
pair mul_rev(double a, double b, double d_ret) { rev_calls++; pair p = {b * d_ret, a * d_ret}; return p; }
void *__enzyme_register_gradient_mul[3] = {(void *)mul, (void *)mul_aug, (void *)mul_rev};
double use_mul(double a, double b) { return mul(a, sin(b)); }
typedef struct { double da, db; } grads;
extern grads __enzyme_autodiff_2(void *, ...);

static int fails = 0;
static void check(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (fabs(got - want) > 1e-9 * (1 + fabs(want))) fails++;
}

int main(void) {
  primal_calls = aug_calls = rev_calls = 0;
  check("cube_rev", __enzyme_autodiff((void *)cube, 2.0), 12.0);
  check("cube_rev_calls", primal_calls * 100 + aug_calls * 10 + rev_calls, 11);
  primal_calls = 0;
  check("cube_fwd", __enzyme_fwddiff((void *)cube, 2.0, 1.0), 12.0);
  check("cube_fwd_calls", fwd_calls, 1);

  double x[3] = {1.0, -0.5, 2.0}, dx[3] = {0}, y[3], dy[3] = {0};
  primal_calls = aug_calls = rev_calls = 0;
  __enzyme_autodiff((void *)cubes, x, dx, y, dy, 3);
  for (int i = 0; i < 3; i++) {
    char label[16]; snprintf(label, sizeof label, "cubes_%d", i);
    check(label, dx[i], 3 * x[i] * x[i] * (i + 1));
  }
  check("cubes_calls", primal_calls * 100 + aug_calls * 10 + rev_calls, 33);

  primal_calls = aug_calls = rev_calls = fwd_calls = 0;
  double x0 = 0.3, s = 1 / (1 + exp(-0.6));
  check("soft_rev", __enzyme_autodiff((void *)use_soft, x0), 2 * s * x0 + log(1 + exp(0.6)));
  check("soft_rev_calls", primal_calls * 100 + aug_calls * 10 + rev_calls, 11);
  check("soft_fwd", __enzyme_fwddiff((void *)use_soft, x0, 1.0), 2 * s * x0 + log(1 + exp(0.6)));

  primal_calls = aug_calls = rev_calls = 0;
  grads g = __enzyme_autodiff_2((void *)use_mul, 1.5, 0.4);
  check("mul_a", g.da, sin(0.4));
  check("mul_b", g.db, 1.5 * cos(0.4));
  check("mul_calls", primal_calls * 100 + aug_calls * 10 + rev_calls, 11);
  return fails ? 1 : 0;
}
