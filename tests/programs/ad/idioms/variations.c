/* Variations that once risked a wrong derivative: a function pointer kept in a local struct (an operator record
   initialized with a function of this file) and in a local table read at constant indices, an array of records
   walked with an early exit, a window pointer read at negative offsets, a loop whose trip count comes from the
   data, memcpy/memset of active memory with a pointer round-tripped through an integer, and the same energy in
   float. Reverse mode and forward mode against central differences. Prints "label derivative reference";
   aborts on a wrong derivative. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want, tol)                                              \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= (tol) * (1 + fabs(want_)))) abort();                    \
  } while (0)

typedef struct { double (*combine)(double, double); double weight; } rule;
static double product(double a, double b) { return a * b; }
static double smooth_max(double a, double b) { return log(exp(a) + exp(b)); }
static double square(double a) { return a * a; }
static double bump(double a) { return a * exp(-a); }

/* operator records and a table of functions in locals, read at constant positions */
double ops(const double *x, int n) {
  rule r = {product, 0.5};
  rule q = {smooth_max, 2};
  double (*table[2])(double) = {square, bump};
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += r.weight * r.combine(x[i], x[i + 1]) + q.combine(x[i], q.weight);
  return s + table[0](x[0]) + table[1](x[n - 1]);
}

typedef struct { double pos, vel; int kind; double mass; } body;
/* kinetic energy of the bodies up to the first of kind < 0, with a coupling to the previous one */
double energy(const body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    if (b[i].kind < 0) break;
    e += 0.5 * b[i].mass * b[i].vel * b[i].vel;
    if (i > 0) e += b[i].pos * b[i - 1].vel;
  }
  return e;
}

/* a centred window read at negative offsets, then a recurrence run a data-dependent number of times */
double window(const double *x, int n) {
  const double *c = x + n / 2;
  double s = 0;
  for (int k = -n / 2; k < n / 2 - 1; k++) s += c[k] * c[k + 1] - sin(c[-1 - k]);
  int steps = (int)(x[n - 1] * 10 + 0.5), m = 0;
  double acc = x[0];
  while (m < steps) { acc = acc * 0.5 + x[m % n] * acc; m++; }
  return s + acc;
}

/* a heap copy shifted with memcpy after a memset, a pointer through uintptr_t, a stack copy partly cleared */
double copies(const double *x, int n) {
  double *buf = malloc(2 * n * sizeof(double));
  memset(buf, 0, 2 * n * sizeof(double));
  memcpy(buf + n, x, n * sizeof(double));
  memcpy(buf, buf + n + 1, (n - 1) * sizeof(double));
  uintptr_t at = (uintptr_t)(buf + 1) + sizeof(double);
  const double *q = (const double *)at;
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * buf[n + i] + q[i % (n - 2)];
  double tmp[4];
  memcpy(tmp, x, sizeof tmp);
  memset(tmp + 2, 0, 2 * sizeof(double));
  s += tmp[0] * tmp[1] + tmp[3];
  free(buf);
  return s;
}

float energy_f(const float *x, int n) {
  float e = 0;
  for (int i = n - 1; i >= 0; i--) {
    if (x[i] > 100) return -1;
    e += x[i] * x[i] * sinf(x[i]);
  }
  return e;
}

/* reverse mode against central differences, then forward mode along one axis against the gradient */
#define CHECK(label, f, x, n)                                                                \
  do {                                                                                    \
    double dx[n] = {0}, t[n] = {0};                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                     \
    for (int i = 0; i < n; i++) {                                                         \
      double h = 1e-6, o = x[i];                                                          \
      x[i] = o + h; double fp = f(x, n); x[i] = o - h; double fm = f(x, n); x[i] = o;     \
      APPROX_EQ(label, i, dx[i], (fp - fm) / (2 * h), 1e-5);                              \
    }                                                                                     \
    t[n / 2] = 1;                                                                         \
    double tangent = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, n);      \
    APPROX_EQ(label, 100 + n / 2, tangent, dx[n / 2], 1e-9);                              \
  } while (0)

int main(void) {
  enum { N = 8, B = 6 };
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 * i + 0.1;
  CHECK("ops", ops, x, N);
  CHECK("window", window, x, N);
  for (int i = 0; i < N; i++) x[i] = 1 + 0.3 * i;
  CHECK("copies", copies, x, N);

  body b[B], db[B];
  for (int i = 0; i < B; i++) { b[i].pos = 0.3 * i + 1; b[i].vel = 0.1 * i - 0.2; b[i].mass = 1 + 0.5 * i; b[i].kind = i == 4 ? -1 : 1; }
  memset(db, 0, sizeof db);
  __enzyme_autodiff((void *)energy, b, db, B);
  for (int i = 0; i < B; i++) {
    double *fields[3] = {&b[i].pos, &b[i].vel, &b[i].mass}, *dfields[3] = {&db[i].pos, &db[i].vel, &db[i].mass};
    for (int k = 0; k < 3; k++) {
      double h = 1e-6, o = *fields[k];
      *fields[k] = o + h; double fp = energy(b, B); *fields[k] = o - h; double fm = energy(b, B); *fields[k] = o;
      APPROX_EQ("bodies", 3 * i + k, *dfields[k], (fp - fm) / (2 * h), 1e-5);
    }
  }

  float xf[N], dxf[N] = {0};
  for (int i = 0; i < N; i++) xf[i] = 0.25f * i - 0.5f;
  __enzyme_autodiff_f((void *)energy_f, xf, dxf, N);
  for (int i = 0; i < N; i++)
    APPROX_EQ("float", i, dxf[i], 2 * xf[i] * sin(xf[i]) + xf[i] * xf[i] * cos(xf[i]), 1e-5);
  return 0;
}
