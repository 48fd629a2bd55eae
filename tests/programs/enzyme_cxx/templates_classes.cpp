// Plain C++ differentiated with Enzyme's C++ declarations (a variadic function template per mode):
// function templates (type and non-type parameters, a specialization differentiated directly), a class with a
// constructor and const member functions passed by const reference, reference parameters as outputs, std::
// math, `using` aliases and `using namespace std`, a struct of gradients. Gradients and tangents against central finite differences.
// Prints "label derivative reference"; aborts when one is outside tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace std;
using real = double;

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;

template <typename Ret, typename... Args>
Ret __enzyme_autodiff(void *, Args...);
template <typename Ret, typename... Args>
Ret __enzyme_fwddiff(void *, Args...);

template <typename T>
T cube(T x) { return x * x * x; }

template <typename T>
T smooth(T x) { return std::tanh(x) + cube(x) / T(3); }

template <int N>
real weighted(const real *x) {
  real s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * std::sin(x[i]) * x[i];
  return s;
}

class Spring {
 public:
  Spring(real k, real rest) : k_(k), rest_(rest) {}
  real energy(real x) const {
    real d = x - rest_;
    return 0.5 * k_ * d * d + std::pow(std::fabs(d) + 1.0, 1.5);
  }
  real scaled(real x, real s) const { return s * energy(x); }

 private:
  real k_, rest_;
};

real spring_energy(const Spring &s, real x) { return s.scaled(x, 2.0) + std::exp(-x); }

real chain(real x) {
  Spring a(3.0, 0.5), b(1.5, -0.25);
  return spring_energy(a, x) + b.energy(std::sqrt(x * x + 1.0));
}

// results through references, as Enzyme's C++ tests write them
void polar(const real &r, const real &theta, real &x, real &y) {
  x = r * std::cos(theta);
  y = r * std::sin(theta);
}

real polar_norm(real r, real theta) {
  real x, y;
  polar(r, theta, x, y);
  return std::log(1.0 + x * x) + y * x;
}

void accumulate(real &out, const real *v, int n) {
  out = 0;
  for (int i = 0; i < n; i++) out += v[i] * std::exp(0.1 * v[i]);
}

struct Grads2 { double dr, dth; };

static int failures;

static void check(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (!(std::fabs(got - want) <= 1e-6 * (1 + std::fabs(want)))) failures++;
}

static double central(double (*f)(double), double x) {
  double h = 1e-6;
  return (f(x + h) - f(x - h)) / (2 * h);
}

int main() {
  double x = 0.7;
  check("cube", __enzyme_autodiff<double>((void *)cube<double>, x), 3 * x * x);
  check("smooth", __enzyme_autodiff<double>((void *)smooth<double>, enzyme_out, x), central(smooth<double>, x));
  float xf = 0.3f;
  float gf = __enzyme_autodiff<float>((void *)cube<float>, xf);
  check("cube_float", gf, 3.0 * xf * xf);
  check("smooth_fwd", __enzyme_fwddiff<double>((void *)smooth<double>, x, 1.0), central(smooth<double>, x));

  double v[4] = {0.1, 0.5, -0.3, 0.9}, dv[4] = {0, 0, 0, 0};
  __enzyme_autodiff<void>((void *)weighted<4>, enzyme_dup, v, dv);
  for (int i = 0; i < 4; i++) {
    double keep = v[i];
    v[i] = keep + 1e-6; double up = weighted<4>(v);
    v[i] = keep - 1e-6; double dn = weighted<4>(v);
    v[i] = keep;
    check("weighted", dv[i], (up - dn) / 2e-6);
  }

  check("chain", __enzyme_autodiff<double>((void *)chain, x), central(chain, x));
  check("chain_fwd", __enzyme_fwddiff<double>((void *)chain, enzyme_dup, x, 1.0), central(chain, x));

  Spring s(2.0, 0.1);
  check("method", __enzyme_autodiff<double>((void *)spring_energy, enzyme_const, &s, enzyme_out, x),
        (spring_energy(s, x + 1e-6) - spring_energy(s, x - 1e-6)) / 2e-6);

  double r = 1.3, th = 0.4;
  Grads2 g = __enzyme_autodiff<Grads2>((void *)polar_norm, r, th);
  check("polar_r", g.dr, (polar_norm(r + 1e-6, th) - polar_norm(r - 1e-6, th)) / 2e-6);
  check("polar_th", g.dth, (polar_norm(r, th + 1e-6) - polar_norm(r, th - 1e-6)) / 2e-6);

  // reference outputs: the shadow of the output seeds the reverse sweep
  double rr = 1.3, drr = 0, tt = 0.4, dtt = 0, ox = 0, dox = 1.0, oy = 0, doy = 0.5;
  __enzyme_autodiff<void>((void *)polar, enzyme_dup, &rr, &drr, enzyme_dup, &tt, &dtt, enzyme_dupnoneed, &ox, &dox,
                          enzyme_dupnoneed, &oy, &doy);
  check("ref_r", drr, std::cos(0.4) + 0.5 * std::sin(0.4));
  check("ref_theta", dtt, -1.3 * std::sin(0.4) + 0.5 * 1.3 * std::cos(0.4));

  double w[3] = {0.2, -0.4, 1.1}, dw[3] = {0, 0, 0}, out = 0, dout = 1.0;
  __enzyme_autodiff<void>((void *)accumulate, enzyme_dup, &out, &dout, enzyme_dup, w, dw, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check("accum", dw[i], std::exp(0.1 * w[i]) * (1 + 0.1 * w[i]));
  return failures ? 1 : 0;
}
