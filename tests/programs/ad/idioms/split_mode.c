/* Enzyme's split mode: __enzyme_augmentfwd runs the forward pass and returns a tape, __enzyme_reverse takes the
   same arguments (then the adjoint of a floating result) and the tape, and accumulates the gradients. Checked
   against __enzyme_autodiff on copies of the inputs: an in-place iteration that overwrites its input (the values
   the reverse pass needs live only on the tape), a loop whose intermediates are cached, a local struct and a
   malloc'd scratch buffer, a scalar function returning its primal value with the tape, two tapes taken before
   either reverse pass runs, and a reverse pass returning the adjoints of two active scalars. Prints "label
   derivative reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-9 * (1 + fabs(want_)))) abort();                     \
  } while (0)

/* three steps of a map that overwrites its state */
void iterate(double *x) {
  for (int it = 0; it < 3; it++) {
    double t = 4 * cos(x[0] + x[1]);
    x[0] = 3 * sin(2 * x[0] + x[1]);
    x[1] = t;
  }
}

typedef struct { double lo, hi; } range;

/* a local struct, a malloc'd buffer and a loop: out = sum_i clamp-free smooth terms */
double smooth(const double *x, int n) {
  range r = {x[0], x[n - 1]};
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(x[i] * 0.5) * (r.hi - r.lo);
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] / (1 + x[i] * x[i]);
  free(t);
  return s;
}

typedef struct { void *tape; double primal; } tape_and_double;
extern tape_and_double __enzyme_augmentfwd_td(void *, ...);
extern double __enzyme_reverse_d(void *, ...);
double cube_sin(double a) { return a * a * a * sin(a); }

typedef struct { double da, db; } pair;
extern pair __enzyme_reverse_pair(void *, ...);
double mix(double a, const double *x, double b) { return a * x[0] * x[0] + exp(b * x[1]); }

int main(void) {
  double x[2] = {0.9, 0.7}, xb[2] = {1, 2}, y[2] = {0.9, 0.7}, yb[2] = {1, 2};
  void *tape = __enzyme_augmentfwd((void *)iterate, x, xb);
  __enzyme_reverse((void *)iterate, x, xb, tape);
  __enzyme_autodiff((void *)iterate, y, yb);
  for (int i = 0; i < 2; i++) {
    APPROX_EQ("iterate_value", i, x[i], y[i]);
    APPROX_EQ("iterate", i, xb[i], yb[i]);
  }

  enum { N = 5 };
  double s[N] = {0.3, -0.2, 0.8, 0.1, 1.1}, ds[N] = {0}, ds2[N] = {0};
  tape_and_double r = __enzyme_augmentfwd_td((void *)smooth, s, ds, N);
  APPROX_EQ("smooth_primal", 0, r.primal, smooth(s, N));
  __enzyme_reverse((void *)smooth, s, ds, N, 1.0, r.tape);
  __enzyme_autodiff((void *)smooth, s, ds2, N);
  for (int i = 0; i < N; i++) APPROX_EQ("smooth", i, ds[i], ds2[i]);

  /* two tapes before either reverse pass; the adjoint of the result is passed (here 2 and -1) */
  tape_and_double t1 = __enzyme_augmentfwd_td((void *)cube_sin, 1.5);
  tape_and_double t2 = __enzyme_augmentfwd_td((void *)cube_sin, -0.5);
  double g2 = __enzyme_reverse_d((void *)cube_sin, -0.5, -1.0, t2.tape);
  double g1 = __enzyme_reverse_d((void *)cube_sin, 1.5, 2.0, t1.tape);
  APPROX_EQ("cube_sin_primal", 1, t1.primal, cube_sin(1.5));
  APPROX_EQ("cube_sin", 1, g1, 2.0 * (3 * 1.5 * 1.5 * sin(1.5) + pow(1.5, 3) * cos(1.5)));
  APPROX_EQ("cube_sin", 2, g2, -1.0 * (3 * 0.25 * sin(-0.5) + pow(-0.5, 3) * cos(-0.5)));

  double m[2] = {1.25, -0.5}, dm[2] = {0};
  void *tm = __enzyme_augmentfwd((void *)mix, 0.75, m, dm, 0.4);
  pair p = __enzyme_reverse_pair((void *)mix, 0.75, m, dm, 0.4, 1.0, tm);
  APPROX_EQ("mix_da", 0, p.da, m[0] * m[0]);
  APPROX_EQ("mix_db", 0, p.db, m[1] * exp(0.4 * m[1]));
  APPROX_EQ("mix_dx", 0, dm[0], 2 * 0.75 * m[0]);
  APPROX_EQ("mix_dx", 1, dm[1], 0.4 * exp(0.4 * m[1]));
  return 0;
}
