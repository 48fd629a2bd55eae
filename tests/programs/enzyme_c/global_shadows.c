/* Enzyme's shadows of globals, queried by the program: __enzyme_context(1) and __enzyme_shadow(ctx, &g, 0),
   the context-free __enzyme_shadow(&g, 1, 0), __enzyme_zero_shadows(ctx) between gradients, and
   `enzyme_context, ctx` passed to __enzyme_autodiff / __enzyme_fwddiff. Reverse mode adds the adjoints of the
   globals' values into their shadows, forward mode reads their tangents there. Globals of every kind pgcc
   keeps: scalars and arrays of numbers, a struct mixing doubles and an int (its shadow keeps the int), a
   descriptor pointing to another global array (its shadow points to that array's shadow), and globals the
   differentiated code overwrites. Each derivative is compared with central finite differences or the
   analytic value; main returns 1 when one is off. */
#include <math.h>
#include <stdio.h>

extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void *__enzyme_shadow_of(void *, int, int); /* (Enzyme's context-free form) */
extern void __enzyme_zero_shadows(void *);
extern double __enzyme_autodiff(double (*)(double), ...);
extern double __enzyme_fwddiff(double (*)(double), ...);
extern int enzyme_context;

static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (fabs(got - want) > 1e-5 * (1 + fabs(want)))
    failures++;
}

double gain = 1.5;
double taps[3] = {0.5, -1.0, 2.0};
struct { double lo; int count; double hi; } range = {-0.25, 3, 4.0};
double table[4] = {1.0, 2.0, 3.0, 5.0};
struct { double *base; long n; } view = {table, 4};
double state = 0.5;

double filter(double x) {
  double s = 0;
  for (int k = 0; k < 3; k++) s += taps[k] * pow(x, k);
  return gain * s + range.hi * sin(x) * range.count + range.lo;
}

double weighted(double x) {
  double s = 0;
  for (long i = 0; i < view.n; i++) s += view.base[i] * cos(i * x);
  return s;
}

double relax(double x) {  /* overwrites a global it reads */
  state = state * x + exp(-x);
  return state * state;
}

#define H 1e-6
/* central difference of f at x when global variable `v` moves by +-H */
#define FD_GLOBAL(f, x, v) ({ double v0 = (v), p, m; (v) = v0 + H; p = f(x); (v) = v0 - H; m = f(x); (v) = v0; \
                              (p - m) / (2 * H); })

int main(void) {
  void *ctx = __enzyme_context(1);
  double *dgain = (double *)__enzyme_shadow(ctx, &gain, 0);
  double *dtaps = (double *)__enzyme_shadow(ctx, taps, 0);
  double *dhi = (double *)__enzyme_shadow_of(&range.hi, 1, 0);
  double *dlo = (double *)__enzyme_shadow_of(&range.lo, 1, 0);
  int *dcount = (int *)__enzyme_shadow_of(&range.count, 1, 0);
  double **dbase = (double **)__enzyme_shadow(ctx, &view.base, 0);
  double *dtable = (double *)__enzyme_shadow(ctx, &table[0], 0);
  check("int_field_kept", 0, *dcount, 3);
  check("descriptor_points_to_shadow", 0, *dbase == dtable, 1);

  for (int i = 0; i < 3; i++) {  /* gradients with respect to the globals, zeroed before each */
    double x = 0.3 + 0.4 * i;
    __enzyme_zero_shadows(ctx);
    double dx = __enzyme_autodiff(filter, enzyme_context, ctx, x);
    check("filter_dx", i, dx, (filter(x + H) - filter(x - H)) / (2 * H));
    check("filter_dgain", i, *dgain, FD_GLOBAL(filter, x, gain));
    check("filter_dtap1", i, dtaps[1], FD_GLOBAL(filter, x, taps[1]));
    check("filter_dtap2", i, dtaps[2], FD_GLOBAL(filter, x, taps[2]));
    check("filter_dhi", i, *dhi, FD_GLOBAL(filter, x, range.hi));
    check("filter_dlo", i, *dlo, 1.0);
    __enzyme_zero_shadows(ctx);
    __enzyme_autodiff(weighted, enzyme_context, ctx, x);
    check("weighted_dtable3", i, dtable[3], FD_GLOBAL(weighted, x, table[3]));
    check("weighted_dtable1", i, dtable[1], cos(x));
  }

  __enzyme_zero_shadows(ctx);  /* forward mode: the tangents seeded in the shadows */
  *dgain = 1.0;
  dtaps[2] = 0.5;
  double x = 0.8;
  double t = __enzyme_fwddiff(filter, enzyme_context, ctx, x, 0.0);
  check("filter_tangent", 0, t, FD_GLOBAL(filter, x, gain) + 0.5 * FD_GLOBAL(filter, x, taps[2]));
  dtable[2] = 1.0;
  t = __enzyme_fwddiff(weighted, x, 0.0);
  check("weighted_tangent", 0, t, cos(2 * x));

  /* a global overwritten by the differentiated code: the adjoint of its value on entry */
  double s0 = state;
  double *dstate = (double *)__enzyme_shadow(ctx, &state, 0);
  *dstate = 0;
  double dx = __enzyme_autodiff(relax, x);
  double want_in = (s0 * x + exp(-x)) * 2 * x;
  state = s0;
  check("relax_dx", 0, dx, 2 * (s0 * x + exp(-x)) * (s0 - exp(-x)));
  check("relax_dstate", 0, *dstate, want_in);
  state = s0;
  *dstate = 1.0;
  t = __enzyme_fwddiff(relax, x, 0.0);
  check("relax_tangent", 0, t, want_in);
  return failures != 0;
}
