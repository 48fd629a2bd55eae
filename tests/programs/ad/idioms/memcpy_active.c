/* memcpy and memmove of differentiated data: into a malloc'd scratch buffer, into a stack array, a memmove that
   shifts a buffer onto itself, and a memcpy of a whole struct of doubles. Reverse mode against hand-derived values,
   forward mode against central differences. Prints "label derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want, tol)                                              \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= (tol) * (1 + fabs(want_)))) abort();                    \
  } while (0)

#define N 5

/* copy x into scratch, square in place, sum with weights */
double scratch_sum(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  memcpy(t, x, n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = t[i] * t[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * (i + 1);
  free(t);
  return s;
}

/* copy into a stack array, then a memmove by one element: u[k] = x[k-1] for k >= 1, u[0] = x[0] */
double shifted(const double *x, int n) {
  double u[N];
  memcpy(u, x, N * sizeof(double));
  memmove(u + 1, u, (N - 1) * sizeof(double));
  double s = 0;
  for (int i = 0; i < N; i++) s += u[i] * x[i];
  return s;
}

typedef struct { double p, q, r; } triple;

/* a struct copied with memcpy from the input, then combined */
double struct_copy(const triple *in) {
  triple c;
  memcpy(&c, in, sizeof c);
  return c.p * c.q + exp(c.r) * c.p;
}

double fd(double (*f)(const double *, int), const double *x, const double *v, int n) {
  double xp[N], xm[N], h = 1e-6;
  for (int i = 0; i < n; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }
  return (f(xp, n) - f(xm, n)) / (2 * h);
}

int main(void) {
  double x[N] = {0.5, -1.5, 2.0, 0.25, -0.75};
  double dx[N] = {0};
  __enzyme_autodiff((void *)scratch_sum, x, dx, N);
  for (int i = 0; i < N; i++) APPROX_EQ("scratch", i, dx[i], 2 * x[i] * (i + 1), 1e-9);

  double dx2[N] = {0};
  __enzyme_autodiff((void *)shifted, x, dx2, N);
  /* s = x0*x0 + sum_{i>=1} x[i-1] x[i] */
  for (int i = 0; i < N; i++) {
    double want = (i == 0 ? 2 * x[0] : x[i - 1]) + (i + 1 < N ? x[i + 1] : 0);
    APPROX_EQ("memmove", i, dx2[i], want, 1e-9);
  }

  double v[N] = {1, 0.5, -0.25, 2, -1};
  double t1 = __enzyme_fwddiff((void *)scratch_sum, x, v, N);
  APPROX_EQ("scratch_fwd", 0, t1, fd(scratch_sum, x, v, N), 1e-6);
  double t2 = __enzyme_fwddiff((void *)shifted, x, v, N);
  APPROX_EQ("memmove_fwd", 0, t2, fd(shifted, x, v, N), 1e-6);

  triple in = {1.25, -0.5, 0.3}, din = {0, 0, 0};
  __enzyme_autodiff((void *)struct_copy, &in, &din);
  APPROX_EQ("struct_p", 0, din.p, in.q + exp(in.r), 1e-9);
  APPROX_EQ("struct_q", 0, din.q, in.p, 1e-9);
  APPROX_EQ("struct_r", 0, din.r, exp(in.r) * in.p, 1e-9);
  return 0;
}
