// Lambdas in differentiated C++: a capture-less lambda called twice, captures by value and by reference of
// differentiated scalars and arrays, a lambda that writes through a captured reference, and one passed to a
// function template as a callable. Reverse and forward mode against hand-derived values. Prints "label derivative
// reference"; aborts on a wrong derivative.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
struct grads { double da, db; };
extern grads __enzyme_autodiff2(void *, ...);

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    std::printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                          \
    std::fflush(stdout);                                                                \
    if (!(std::fabs(got_ - want_) <= 1e-9 * (1 + std::fabs(want_)))) std::abort();      \
  } while (0)

double plain(double x) {
  auto sq = [](double y) { return y * y; };
  return sq(x) * sq(std::sin(x));
}

double captures(double a, double b) {
  double scale = 2.0 * b;
  auto by_value = [scale](double y) { return scale * y * y; };
  double acc = 0;
  auto by_ref = [&acc, a](double y) { acc += a * std::exp(y); };
  by_ref(b);
  by_ref(a);
  return by_value(a) + acc;
}

template <typename F> double apply_sum(F f, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += f(x[i], i);
  return s;
}

double weighted(const double *x, double w) {
  return apply_sum([w](double v, int i) { return w * v * v * (i + 1); }, x, 3);
}

int main() {
  double x = 0.7;
  double want = 2 * x * std::pow(std::sin(x), 2) + x * x * 2 * std::sin(x) * std::cos(x);
  APPROX_EQ("plain", 0, __enzyme_autodiff((void *)plain, x), want);
  APPROX_EQ("plain_fwd", 0, __enzyme_fwddiff((void *)plain, x, 1.0), want);

  double a = 0.4, b = -0.3;
  grads g = __enzyme_autodiff2((void *)captures, a, b);
  // f = 2b a^2 + a e^b + a e^a
  APPROX_EQ("captures_da", 0, g.da, 4 * b * a + std::exp(b) + std::exp(a) + a * std::exp(a));
  APPROX_EQ("captures_db", 0, g.db, 2 * a * a + a * std::exp(b));
  APPROX_EQ("captures_fwd", 0, __enzyme_fwddiff((void *)captures, a, 1.0, b, 0.0), g.da);

  double v[3] = {0.5, -1.0, 2.0}, dv[3] = {0};
  double dw = __enzyme_autodiff((void *)weighted, v, dv, 1.5);
  double dww = 0;
  for (int i = 0; i < 3; i++) {
    APPROX_EQ("weighted", i, dv[i], 2 * 1.5 * v[i] * (i + 1));
    dww += v[i] * v[i] * (i + 1);
  }
  APPROX_EQ("weighted_dw", 0, dw, dww);
  return 0;
}
