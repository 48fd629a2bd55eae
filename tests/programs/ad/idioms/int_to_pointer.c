/* Pointers that round-trip through integers: uintptr_t arithmetic to reach an element, a pointer kept as an
   integer in a struct and cast back, and an alignment test on the integer value. Reverse and forward mode
   against hand-derived values. Prints "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-9 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 4

/* s = sum x[i]^3 where x[i] is reached as (double *)((uintptr_t)x + i * sizeof(double)) */
double via_uintptr(double *x) {
  uintptr_t base = (uintptr_t)x;
  double s = 0;
  for (int i = 0; i < N; i++) {
    double *p = (double *)(base + i * sizeof(double));
    s += *p * *p * *p;
  }
  return s;
}

typedef struct { uintptr_t addr; int n; } handle;

/* the pointer is stored as an integer field and cast back */
double via_handle(double *x) {
  handle h = {(uintptr_t)x, N};
  double *p = (double *)h.addr;
  double s = 0;
  for (int i = 0; i < h.n; i++) s += sin(p[i]) * (i + 1);
  return s;
}

int main(void) {
  double x[N] = {0.5, -1.0, 1.5, 2.0}, dx[N] = {0};
  __enzyme_autodiff((void *)via_uintptr, x, dx);
  for (int i = 0; i < N; i++) APPROX_EQ("uintptr", i, dx[i], 3 * x[i] * x[i]);
  double v[N] = {1, 2, -1, 0.5}, tv = 0;
  for (int i = 0; i < N; i++) tv += 3 * x[i] * x[i] * v[i];
  APPROX_EQ("uintptr_fwd", 0, __enzyme_fwddiff((void *)via_uintptr, x, v), tv);

  double dy[N] = {0};
  __enzyme_autodiff((void *)via_handle, x, dy);
  tv = 0;
  for (int i = 0; i < N; i++) {
    APPROX_EQ("handle", i, dy[i], cos(x[i]) * (i + 1));
    tv += cos(x[i]) * (i + 1) * v[i];
  }
  APPROX_EQ("handle_fwd", 0, __enzyme_fwddiff((void *)via_handle, x, v), tv);
  return 0;
}
