/* Calls through a function pointer chosen at run time (ad/pointer_dispatch.py): a local that a branch sets to one
   of two functions, a pointer passed to the differentiated function as a constant argument (functions of the
   file and libm's), and a table of functions in a global indexed by a value computed from the data. Prints
   "label derivative reference": reverse and forward mode along a direction against central finite
   differences. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const;

typedef double (*unary)(double);
typedef double (*binary)(double, double);

static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double mix(double u, double w) { return sin(u) * w + 0.5 * u; }
static double squash(double u, double w) { return tanh(u * w); }
static binary table[2] = {mix, squash};

double chosen(double x, int flag) {
  unary f = flag ? square : cube;
  return f(x) + x * f(0.5 * x);
}

double apply(unary f, double x) { return f(x) * 2.0 + sin(x); }

double walk(const double *a, double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += table[(int)(fabs(a[i]) * 2.0) % 2](a[i], x + s * 0.1);
  return s;
}

int main(void) {
  double h = 1e-6, x = 0.8;
  for (int flag = 0; flag < 2; flag++) {
    double fd = (chosen(x + h, flag) - chosen(x - h, flag)) / (2 * h);
    printf("chosen%d_rev %.15g %.15g\n", flag, __enzyme_autodiff((void *)chosen, x, flag), fd);
    printf("chosen%d_fwd %.15g %.15g\n", flag, __enzyme_fwddiff((void *)chosen, x, 1.0, flag), fd);
  }
  unary fs[4] = {square, cube, sin, cos};
  for (int k = 0; k < 4; k++) {
    double fd = (apply(fs[k], x + h) - apply(fs[k], x - h)) / (2 * h);
    printf("apply%d_rev %.15g %.15g\n", k, __enzyme_autodiff((void *)apply, enzyme_const, fs[k], x), fd);
    printf("apply%d_fwd %.15g %.15g\n", k, __enzyme_fwddiff((void *)apply, enzyme_const, fs[k], x, 1.0), fd);
  }
  double a[4] = {0.2, 0.7, 1.1, -0.4}, da[4] = {0}, v[4] = {0.3, -0.5, 0.2, 0.6}, ap[4], am[4];
  for (int i = 0; i < 4; i++) { ap[i] = a[i] + h * v[i]; am[i] = a[i] - h * v[i]; }
  double fd = (walk(ap, x + 0.4 * h, 4) - walk(am, x - 0.4 * h, 4)) / (2 * h);
  double rev = 0.4 * __enzyme_autodiff((void *)walk, a, da, x, 4);
  for (int i = 0; i < 4; i++) rev += da[i] * v[i];
  printf("walk_rev %.15g %.15g\n", rev, fd);
  printf("walk_fwd %.15g %.15g\n", __enzyme_fwddiff((void *)walk, a, v, x, 0.4, 4), fd);
  return 0;
}
