/* Derivatives that must hold at the ends of the double range and at signed zeros: the partials of a quotient
   x / y for |y| near 1e160 and 1e-160, where y * y (or (1/y)^2) leaves the range although x / y and its
   derivatives are representable, in forward mode, reverse mode (also accumulated over a loop whose divisor is
   invariant) and nested forward mode; and the derivative of fabs at +0.0 and -0.0, which follows the sign bit
   (so fabs(-x * x) has the second derivative 2 at x = 0). Values are scaled back to O(1) and compared with the
   analytic ones. Prints "label derivative reference" and exits 1 when one is off. */
#include <math.h>
#include <stdio.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup;

static int failures;

static void check(const char *label, double got, double want, double tol) {
  printf("%s %.17g %.17g\n", label, got, want);
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) failures++;
}

double ratio(double x, double y) { return x / y; }
double ratio_dx(double x, double y) { return __enzyme_fwddiff((void *)ratio, x, 1.0, y, 0.0); }
double ratio_dy(double x, double y) { return __enzyme_fwddiff((void *)ratio, x, 0.0, y, 1.0); }
double ratio_dyy(double x, double y) { return __enzyme_fwddiff((void *)ratio_dy, x, 0.0, y, 1.0); }
double ratio_dxy(double x, double y) { return __enzyme_fwddiff((void *)ratio_dx, x, 0.0, y, 1.0); }

/* shares of a (large) total: every term divided by the same invariant total */
double shares(const double *w, const double *total, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] / *total;
  return s;
}

double magnitude(double x) { return fabs(x); }
double folded(double x) { return fabs(-x * x); }
double folded_t(double x) { return __enzyme_fwddiff((void *)folded, x, 1.0); }
double folded_g(double x) { return __enzyme_autodiff((void *)folded, x); }

int main(void) {
  const double big[] = {1e160, -3e158, 1e-160, 7e-155};
  for (int k = 0; k < 4; k++) {
    double y = big[k];
    check("fwd_d_dx_times_y", ratio_dx(2.0, y) * y, 1.0, 1e-14);
    check("fwd_d_dy_times_y_at_x=y", ratio_dy(y, y) * y, -1.0, 1e-14);
    check("rev_d_dy_times_y_at_x=y", __enzyme_autodiff((void *)ratio, enzyme_const, y, y) * y, -1.0, 1e-14);
    check("rev_d_dx_times_y", __enzyme_autodiff((void *)ratio, 2.0, enzyme_const, y) * y, 1.0, 1e-14);
  }
  for (int k = 0; k < 2; k++) {
    double y = k ? -1e80 : 1e80;
    check("fwd-fwd_d2_dy2_times_y^3", ratio_dyy(1.0, y) * (y * y) * y, 2.0, 1e-14);
    check("fwd-fwd_d2_dxdy_times_y^2", ratio_dxy(1.0, y) * y * y, -1.0, 1e-14);
  }
  {
    double w[5] = {1e160, 2e160, -1e160, 3e159, 5e159}, dw[5] = {0}, total = 1e160, dtotal = 0, sum = 0;
    __enzyme_autodiff((void *)shares, enzyme_dup, w, dw, enzyme_dup, &total, &dtotal, 5);
    for (int i = 0; i < 5; i++) {
      sum += w[i] / total;
      check("rev_loop_d_dw_i_times_total", dw[i] * total, 1.0, 1e-14);
    }
    check("rev_loop_d_dtotal_times_total", dtotal * total, -sum, 1e-14);
  }

  check("fwd_fabs_d_at_+0", __enzyme_fwddiff((void *)magnitude, 0.0, 1.0), 1.0, 0.0);
  check("fwd_fabs_d_at_-0", __enzyme_fwddiff((void *)magnitude, -0.0, 1.0), -1.0, 0.0);
  check("fwd_fabs_d_at_-2", __enzyme_fwddiff((void *)magnitude, -2.0, 1.0), -1.0, 0.0);
  check("rev_fabs_d_at_+0", __enzyme_autodiff((void *)magnitude, 0.0), 1.0, 0.0);
  check("rev_fabs_d_at_-0", __enzyme_autodiff((void *)magnitude, -0.0), -1.0, 0.0);
  check("rev_fabs_d_at_2", __enzyme_autodiff((void *)magnitude, 2.0), 1.0, 0.0);
  check("fwd-fwd_fabs(-x^2)_2nd_at_0", __enzyme_fwddiff((void *)folded_t, 0.0, 1.0), 2.0, 1e-12);
  check("rev-fwd_fabs(-x^2)_2nd_at_0", __enzyme_autodiff((void *)folded_t, 0.0), 2.0, 1e-12);
  check("fwd-rev_fabs(-x^2)_2nd_at_0", __enzyme_fwddiff((void *)folded_g, 0.0, 1.0), 2.0, 1e-12);
  check("fwd-fwd_fabs(-x^2)_2nd_at_-1.5", __enzyme_fwddiff((void *)folded_t, -1.5, 1.0), 2.0, 1e-12);
  return failures ? 1 : 0;
}
