/* Pointers walked through arrays: an incremented cursor in a counted loop, and a `while (p != end)` loop over
   [begin, end) (the pointer comparison has no derivative). Hand-derived: d/dx_i sum x_i^2 = 2 x_i,
   d/dx_i sum 3 x_i x_i = 6 x_i; forward mode gives the directional derivative. */
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
double cursor_sum(double *x, int n) { double s = 0; double *p = x; for (int i = 0; i < n; i++) { s += *p * *p; p++; } return s; }
double range_sum(const double *p, const double *end) { double s = 0; while (p != end) { s += 3 * *p * *p; p++; } return s; }
int main() {
  double x[4] = {0.5, 1.5, -2.0, 3.0}, dx[4] = {0}, dy[4] = {0}, t[4] = {1, 0, 1, 0};
  __enzyme_autodiff((void *)cursor_sum, x, dx, 4);
  __enzyme_autodiff((void *)range_sum, x, dy, x + 4, dy + 4);
  for (int i = 0; i < 4; i++) {
    printf("cursor%d %.10g %.10g\n", i, dx[i], 2 * x[i]);
    printf("range%d %.10g %.10g\n", i, dy[i], 6 * x[i]);
  }
  printf("fwd %.10g %.10g\n", __enzyme_fwddiff((void *)range_sum, x, t, x + 4, t + 4), dy[0] + dy[2]);
  return 0;
}
