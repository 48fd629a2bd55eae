/* Pointers the program stores into globals at run time, whose shadows it queries with __enzyme_shadow and sets
   itself after each store (Enzyme's contract for the shadows of globals): a global pointer to weights and a
   pointer field of a global table, both pointed at malloc'd memory, their shadows at calloc'd memory. Reverse
   mode adds the adjoints into the memory the shadow pointers name, forward mode reads tangents from there; the
   program then re-points both (and their shadows) and differentiates again. With an argument it re-points a
   global without setting its shadow: the derivative must stop with a message instead of reading the old
   shadow. Prints "label derivative reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern double __enzyme_autodiff(double (*)(double), ...);
extern double __enzyme_fwddiff(double (*)(double), ...);
extern int enzyme_context;

double *weights;
struct { long n; double *scale; } table;

/* sum_i w_i sin(x s_i) */
double response(double x) {
  double s = 0;
  for (long i = 0; i < table.n; i++) s += weights[i] * sin(x * table.scale[i]);
  return s;
}

static int failures;
static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-9 * (1 + fabs(want)))) failures++;
}

static void fill(int n, double base) {
  table.n = n;
  weights = malloc(n * sizeof(double));
  table.scale = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { weights[i] = base + i; table.scale[i] = 0.5 * (i + 1); }
}

static void round_of(void *ctx, double **dw, double **ds, int n, const char *label) {
  *dw = calloc(n, sizeof(double));  /* the shadows follow the stores into the globals */
  *ds = calloc(n, sizeof(double));
  double x = 0.7;
  double g = __enzyme_autodiff(response, enzyme_context, ctx, x);
  double want = 0;
  for (int i = 0; i < n; i++) want += weights[i] * cos(x * table.scale[i]) * table.scale[i];
  check(label, 0, g, want);
  for (int i = 0; i < n; i++) {
    check(label, 10 + i, (*dw)[i], sin(x * table.scale[i]));
    check(label, 20 + i, (*ds)[i], weights[i] * cos(x * table.scale[i]) * x);
  }
  /* forward mode: tangents of the weights and scales in the shadows, and of x */
  double tx = 0.5, tangent = 0;
  for (int i = 0; i < n; i++) {
    (*dw)[i] = 0.1 * (i + 1);
    (*ds)[i] = -0.2 * i;
    tangent += (*dw)[i] * sin(x * table.scale[i]) +
               weights[i] * cos(x * table.scale[i]) * (tx * table.scale[i] + x * (*ds)[i]);
  }
  check(label, 30, __enzyme_fwddiff(response, enzyme_context, ctx, x, tx), tangent);
}

int main(int argc, char **argv) {
  void *ctx = __enzyme_context(1);
  double **dw = __enzyme_shadow(ctx, &weights, 0);
  double **ds = __enzyme_shadow(ctx, &table.scale, 0);
  fill(3, 1.0);
  round_of(ctx, dw, ds, 3, "first");
  fill(5, -2.0);  /* re-pointed: the shadows are set again */
  round_of(ctx, dw, ds, 5, "again");
  if (argc > 1) {
    weights = malloc(5 * sizeof(double));  /* re-pointed, its shadow not set */
    for (int i = 0; i < 5; i++) weights[i] = 2;
    __enzyme_autodiff(response, enzyme_context, ctx, 0.5);
    return 0;
  }
  return failures != 0;
}
