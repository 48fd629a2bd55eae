// Class templates under AD, written the way Enzyme's C++ users write them: a small fixed-size vector template
// (type and non-type parameters, const member functions, operator[], a static member function) used at two
// specializations in one differentiated function, a polynomial template whose member is defined outside the
// class, a rank-N tensor declared by variadic partial specializations (operator[] returning the sub-tensor), and
// Enzyme's markers passed by address through a variadic template declaration (&enzyme_dup), enzyme_inactive on
// a static member function and a static data member of a class template. Gradients and
// tangents against central finite differences; prints "label derivative reference", exits 1 when one is off.
#include <cmath>
#include <cstdio>

extern int enzyme_dup, enzyme_const;

template <typename Ret, typename... Args>
Ret __enzyme_autodiff(void *, Args...);
template <typename Ret, typename... Args>
Ret __enzyme_fwddiff(void *, Args...);

template <typename T, int N>
struct vec {
  T v[N];
  T dot(const vec &o) const {
    T s = 0;
    for (int i = 0; i < N; i++) s += v[i] * o.v[i];
    return s;
  }
  T &operator[](int i) { return v[i]; }
  static T soft(T x) { return std::log(T(1) + std::exp(x)); }
};

template <typename T>
struct poly {
  T c[3];
  T eval(T x) const;
};
template <typename T>
T poly<T>::eval(T x) const { return c[0] + x * (c[1] + x * c[2]); }

template <typename T, int... n>
struct tensor;
template <typename T, int n>
struct tensor<T, n> {
  T value[n];
  T &operator[](int i) { return value[i]; }
};
template <typename T, int first, int... rest>
struct tensor<T, first, rest...> {
  tensor<T, rest...> value[first];
  tensor<T, rest...> &operator[](int i) { return value[i]; }
};

// Enzyme's attributes on members of a class template: each specialization's member is inactive
template <typename T>
struct counter {
  __attribute__((enzyme_inactive)) static T seen;
  __attribute__((noinline)) __attribute__((enzyme_inactive)) static T penalty(T a) { return 5 * a; }
  __attribute__((noinline)) static void record(T a, T *c) {
    seen += a;
    *c *= a;
  }
};
template <typename T>
T counter<T>::seen = 0;

double tracked(double a) {
  double c = a;
  counter<double>::record(a, &c);
  return c + counter<double>::penalty(a);
}

static int failures;

static void check(const char *label, double got, double want) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (!(std::fabs(got - want) <= 1e-6 * (1 + std::fabs(want)))) failures++;
}

// one differentiated function using vec<double, 3>, vec<float, 2> and poly<double>
double energy(vec<double, 3> *p) {
  vec<float, 2> w{{0.5f, 1.5f}};
  poly<double> q{{1.0, -0.5, 0.25}};
  vec<double, 3> &r = *p;
  return r.dot(r) * (double)w.dot(w) + q.eval(r[1]) + vec<double, 3>::soft(r[2]) + vec<double, 3>::soft(r[0] * r[1]);
}

// the trace of the deviatoric part of A A^T, through a rank-2 tensor
double deviator(const tensor<double, 2, 2> &A) {
  tensor<double, 2, 2> B = A;
  double tr = 0;
  for (int i = 0; i < 2; i++) tr += B[i][i];
  for (int i = 0; i < 2; i++) B[i][i] -= tr / 2;
  double s = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) s += B[i][j] * B[i][j] * std::cos(B[j][i]);
  return s;
}

double deviator_of(const double *a) {
  tensor<double, 2, 2> A;
  for (int i = 0; i < 4; i++) A[i / 2][i % 2] = a[i];
  return deviator(A);
}

int main() {
  const double h = 1e-6;
  vec<double, 3> p{{0.7, -1.2, 0.4}}, dp{{0, 0, 0}};
  __enzyme_autodiff<void>((void *)energy, &enzyme_dup, &p, &dp);
  for (int i = 0; i < 3; i++) {
    vec<double, 3> a = p, b = p;
    a[i] += h;
    b[i] -= h;
    check("vec_grad", dp[i], (energy(&a) - energy(&b)) / (2 * h));
  }
  vec<double, 3> t{{0.3, 1.0, -2.0}};
  double tangent = __enzyme_fwddiff<double>((void *)energy, &enzyme_dup, &p, &t);
  vec<double, 3> a = p, b = p;
  for (int i = 0; i < 3; i++) {
    a[i] += h * t[i];
    b[i] -= h * t[i];
  }
  check("vec_tangent", tangent, (energy(&a) - energy(&b)) / (2 * h));

  tensor<double, 2, 2> A, dA;
  const double a0[4] = {1.1, 0.3, -0.4, 0.8};
  for (int i = 0; i < 4; i++) {
    A[i / 2][i % 2] = a0[i];
    dA[i / 2][i % 2] = 0;
  }
  __enzyme_autodiff<void>((void *)deviator, &enzyme_dup, &A, &dA);
  for (int i = 0; i < 4; i++) {
    double ap[4], am[4];
    for (int k = 0; k < 4; k++) ap[k] = am[k] = a0[k];
    ap[i] += h;
    am[i] -= h;
    check("tensor_grad", dA[i / 2][i % 2], (deviator_of(ap) - deviator_of(am)) / (2 * h));
  }
  double g = __enzyme_autodiff<double>((void *)tracked, 1.5);
  check("inactive_members_grad", g, 2 * 1.5);  // (penalty and seen carry no derivative)
  check("inactive_static_member_value", counter<double>::seen, 1.5);
  return failures ? 1 : 0;
}
