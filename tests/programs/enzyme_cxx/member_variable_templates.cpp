// Member function templates and variable templates under reverse and forward mode: a polynomial class whose
// evaluation and power helpers are member templates (type and non-type parameters, two specializations of one
// template in one function, one in float), `constexpr` and mutable variable templates read in differentiated
// code (one global per specialization: the mutable one is changed between calls), one marked enzyme_inactive.
// Gradients against hand-derived values and central finite differences. Prints "label derivative reference";
// exits 1 when one is outside tolerance.
#include <cmath>
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

template <typename T> constexpr T half = T(0.5);
template <typename T> T gain = T(3);
template <typename T> __attribute__((enzyme_inactive)) T seen_sum = T(0);  // (a tally: no derivative flows in)

struct Poly {
  double c[3];
  template <typename T> T eval(T x) const { return T(c[0]) + x * (T(c[1]) + x * T(c[2])); }
  template <int K> double power(double x) const {
    double r = 1;
    for (int i = 0; i < K; i++) r *= x;
    return r * half<double>;
  }
};

double model(double x) {
  Poly p = {{1.0, -2.0, 0.75}};
  return p.eval(x) * gain<double> + p.power<3>(x) + p.power<2>(x) + double(p.eval(float(x)));
}
template <typename T> T damp(T x) { return half<T> * x * x * gain<T>; }
double tally(double x) {
  seen_sum<double> += x;
  return x * x + seen_sum<double>;  // (its value is a constant of the derivative)
}

static int bad = 0;
static void row(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (!(std::fabs(got - want) <= 1e-6 * (1 + std::fabs(want)))) bad = 1;
}
static double central(double (*f)(double), double x) {
  const double h = 1e-6;
  return (f(x + h) - f(x - h)) / (2 * h);
}

int main() {
  const double points[2] = {0.7, 1.9};
  for (int k = 0; k < 2; k++) {
    double x = points[k];
    double dp = -2.0 + 1.5 * x;  // d/dx of the polynomial
    double want = dp * gain<double> + 1.5 * x * x + x + dp;
    row("model_rev", __enzyme_autodiff((void *)model, x), want);
    row("model_fwd", __enzyme_fwddiff((void *)model, x, 1.0), want);
    row("damp_rev", __enzyme_autodiff((void *)damp<double>, x), x * gain<double>);
    gain<double> = 5.0;  // (a mutable variable template: the derivative reads its value now)
    row("damp_gain5", __enzyme_autodiff((void *)damp<double>, x), 5.0 * x);
    row("damp_fd", __enzyme_autodiff((void *)damp<double>, x), central(damp<double>, x));
    gain<double> = 3.0;
    row("tally_rev", __enzyme_autodiff((void *)tally, x), 2 * x);
  }
  row("tally_kept", seen_sum<double>, 0.7 + 1.9);  // (the primal's stores into it stay)
  return bad;
}
