/* The bits of doubles and floats carried by integers between memcpy's: an integer parameter of a helper that
   rebuilds the double and stores it into a malloc'd record next to an integer field, an integer variable
   assigned from another, a uint32_t holding a float. Both modes, against central finite differences. Prints
   "label derivative reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) failures++;
}

typedef struct { double value; long count; } cell;

__attribute__((noinline)) cell *make_cell(unsigned long long bits, long count) {
  cell *c = malloc(sizeof(cell));
  double v;
  memcpy(&v, &bits, sizeof v);
  c->value = v;
  c->count = count;
  return c;
}

double via_param(double x) {
  unsigned long long bits;
  memcpy(&bits, &x, sizeof bits);
  cell *c = make_cell(bits, 3);
  double r = c->value * c->value * c->count;
  free(c);
  return r;
}

double via_copy(double x) {
  double y = sin(x), back;
  unsigned long long a, b;
  memcpy(&a, &y, sizeof a);
  b = a;
  memcpy(&back, &b, sizeof back);
  return back * x;
}

double via_float(double x) {
  float f = (float)(x * x), g;
  uint32_t u, w;
  memcpy(&u, &f, sizeof u);
  w = u;
  memcpy(&g, &w, sizeof g);
  return g + x;
}

typedef double (*fn)(double);

/* ref: the finite difference, or (float rounding) the analytic derivative */
#define COMPARE(label, f, ref)                                                  \
  for (int i = 0; i < 4; i++) {                                                \
    double x = 0.4 + 0.3 * i, h = 1e-6;                                        \
    double fd = (ref);                                                         \
    (void)h;                                                                   \
    check(label, 2 * i, __enzyme_autodiff((void *)f, x), fd);                  \
    check(label, 2 * i + 1, __enzyme_fwddiff((void *)f, x, 1.0), fd);           \
  }

int main(void) {
  COMPARE("param", via_param, (via_param(x + h) - via_param(x - h)) / (2 * h));
  COMPARE("copy", via_copy, (via_copy(x + h) - via_copy(x - h)) / (2 * h));
  COMPARE("float", via_float, 2 * x + 1);
  return failures != 0;
}
