// Enzyme's attributes in C++: enzyme_inactive on a function template (every specialization used), on a static
// data member of a class (written by a static member function), on a member function; `extern "C"`
// declarations of Enzyme's API with a bool constant argument; memory malloc'd and never freed in a unit that
// never names free. Gradients against hand-derived values and central finite differences. Prints
// "label derivative reference"; exits 1 when one is outside tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" {
double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out;
}

template <typename T>
__attribute__((noinline)) __attribute__((enzyme_inactive)) T noise(T a) {
  return std::sin(a) * 100;
}

class Counter {
 public:
  __attribute__((noinline)) static void bump(bool on, double a, double *c) {
    if (on)
      total *= a;
    else
      *c *= a;
  }
  __attribute__((enzyme_inactive)) double scale(double v) const { return v * factor; }
  double factor = 3.0;
  static double get() { return total; }
  static void set(double v) { total = v; }

 private:
  __attribute__((enzyme_inactive)) static double total;
};

double Counter::total = 0;

double with_noise(double a) { return a * a + noise<double>(a) + (double)noise<float>((float)a); }

double with_counter(bool on, double a) {
  double d = a;
  Counter::bump(on, a, &d);
  Counter::bump(true, a, &d);
  Counter c;
  return d + c.scale(a);
}

double leaked(double a) {
  double *p = static_cast<double *>(std::malloc(2 * sizeof(double)));
  p[0] = a * a;
  p[1] = std::exp(p[0]);
  return p[1] - p[0];
}

static int failures;

static void check(const char *label, double got, double want) {
  std::printf("%s %.12g %.12g\n", label, got, want);
  if (!(std::fabs(got - want) <= 1e-7 * (1 + std::fabs(want)))) failures++;
}

int main() {
  double a = 0.8;
  check("template_inactive", __enzyme_autodiff((void *)with_noise, a), 2 * a);
  Counter::set(5.5);
  check("member_inactive", __enzyme_autodiff((void *)with_counter, enzyme_const, false, enzyme_out, a), 2 * a);
  check("static_untouched", Counter::get(), 5.5 * a);
  check("leaked", __enzyme_autodiff((void *)leaked, a), 2 * a * std::exp(a * a) - 2 * a);
  return failures ? 1 : 0;
}
