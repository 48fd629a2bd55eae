/* An array of records with an int field next to its double fields, indexed at run time (`ps[k].k`), and whole
   records copied into it (a struct returned by value, an element copied from another at a data-dependent index).
   Found by benchmarks/fuzz_ad.py: reverse mode refused the copies ("fields pgcc cannot tell apart") because the
   int field made the records look non-uniform. Prints "label derivative reference": reverse and forward mode
   along a direction v against a central finite difference. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

struct P { double u; double v; int k; };
struct Q { int tag; float w; };

static struct P mk(double u, double v) { struct P p; p.u = tanh(u); p.v = u * v * 0.5; p.k = 1; return p; }

double f(double *a, double x, int n) {
  struct P ps[4];
  for (int k = 0; k < n; k++) { ps[k].u = a[k] * x; ps[k].v = 0.3 + a[k]; ps[k].k = k; }
  ps[2] = mk(x, a[1]);
  ps[(int)(a[0] * 10)] = ps[1]; /* element 3 at the test point */
  double r = 0;
  for (int k = 0; k < n; k++) r += ps[k].u * ps[k].v * (ps[k].k + 1);
  return r;
}

/* an int before a float field, records of floats */
double g(double *a, double x, int n) {
  struct Q qs[4];
  for (int k = 0; k < n; k++) { qs[k].tag = 2 * k; qs[k].w = (float)(a[k] * x); }
  qs[(int)(a[0] * 10) - 1] = qs[0];
  double r = 0;
  for (int k = 0; k < n; k++) r += (double)qs[k].w * qs[k].w * (qs[k].tag + 1);
  return r;
}

/* (a macro: the function handed to __enzyme_autodiff must be named) */
#define CHECK(label, fn, h)                                                                                   \
  do {                                                                                                        \
    double a[4] = {0.31, 0.2, 0.3, 0.4}, da[4] = {0}, v[4] = {0.3, -0.5, 0.7, 0.2}, vx = 0.4, x = 0.7;        \
    double dx = __enzyme_autodiff((void *)fn, a, da, x, 4);                                                  \
    double ap[4], am[4], tv[4] = {0.3, -0.5, 0.7, 0.2}, rev = dx * vx;                                       \
    for (int i = 0; i < 4; i++) { ap[i] = a[i] + h * v[i]; am[i] = a[i] - h * v[i]; rev += da[i] * v[i]; } \
    double fwd = __enzyme_fwddiff((void *)fn, a, tv, x, vx, 4);                                              \
    double fd = (fn(ap, x + h * vx, 4) - fn(am, x - h * vx, 4)) / (2 * h);                                   \
    printf("%s_rev %.15g %.15g\n", label, rev, fd);                                                           \
    printf("%s_fwd %.15g %.15g\n", label, fwd, fd);                                                           \
  } while (0)

int main(void) {
  CHECK("f", f, 1e-6);
  CHECK("g", g, 1e-3); /* (float fields: a wider step) */
  return 0;
}
