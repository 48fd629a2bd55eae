/* Forms of Enzyme's C API that programs use: split mode with a tape the caller allocates (enzyme_allocated,
   enzyme_tape) around a function with a local array, a struct of gradients returned directly, nested
   derivatives of a truncated series whose length __enzyme_iter grows with the order, an allocator registered
   with __enzyme_allocation_like whose deallocator returns a pointer, malloc called through a global struct's
   field, vector forward mode, enzyme_inactive_noblock, posix_memalign into a table of rows. Checked against central finite
   differences or the analytic values. Prints "label derivative reference"; exits 1 when one is outside
   tolerance. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern uint64_t __enzyme_iter(uint64_t, uint64_t);
extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape, enzyme_width;

static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) failures++;
}

/* smooths x in place through a local copy */
void smooth(double *x, int n) {
  double t[8];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int i = 1; i + 1 < n; i++) x[i] = sin(t[i - 1]) + t[i] * t[i + 1];
}

#define TAPE 64
static void split_gradient(double *x, double *dx, int n) {
  unsigned char tape[TAPE];
  __enzyme_augmentfwd((void *)smooth, enzyme_dup, x, dx, enzyme_const, n, enzyme_allocated, TAPE, enzyme_tape,
                      tape);
  __enzyme_reverse((void *)smooth, enzyme_dup, x, dx, enzyme_const, n, enzyme_allocated, TAPE, enzyme_tape,
                   tape);
}

static double weighted(const double *x, int n) {
  double y[8], s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i];
  smooth(y, n);
  for (int i = 0; i < n; i++) s += (i + 1) * y[i];
  return s;
}

typedef struct { double dx, dy, dz; } grad3;
extern grad3 __enzyme_autodiff_grad3(void *, ...); /* (any name beginning with __enzyme_autodiff) */
double cell(double x, double y, double z) { return x * y * exp(z) + y / (1 + x * x); }
grad3 cell_gradient(double x, double y, double z) { return __enzyme_autodiff_grad3((void *)cell, x, y, z); }

/* vector forward mode: three directions at once */
typedef struct { double d[3]; } tangents3;
extern tangents3 __enzyme_fwddiff_v3(void *, ...);
double wave(double t, double k) { return sin(k * t) * exp(-0.1 * t) + k * k; }
tangents3 wave_directions(double t, double k) {
  return __enzyme_fwddiff_v3((void *)wave, enzyme_width, 3, t, 1.0, 0.0, 0.5, k, 0.0, 1.0, -2.0);
}

/* exp by a short series, one more term per order of differentiation */
double series_exp(double x) {
  double term = 1, sum = 1;
  uint64_t n = __enzyme_iter(8, 1);
  for (uint64_t k = 1; k <= n; k++) {
    term *= x / k;
    sum += term;
  }
  return sum;
}
double d_series_exp(double x) { return __enzyme_autodiff((void *)series_exp, x); }
double dd_series_exp(double x) { return __enzyme_autodiff((void *)d_series_exp, x); }

/* a bump allocator over a static arena */
static char arena[4096];
static int arena_used;
void *arena_get(char *base, int bytes, int *used) {
  void *p = base + *used;
  *used += (bytes + 15) / 16 * 16;
  return p;
}
void *arena_give(int *used, void *p) {
  (void)used;
  return p;
}
void *__enzyme_allocation_like[4] = {(void *)arena_get, (void *)1, (void *)"2,-1", (void *)arena_give};

__attribute__((noinline)) double *boxed(double v) {
  double *b = arena_get(arena, sizeof(double), &arena_used);
  *b = v * v;
  return b;
}
double unbox(double v) { return *boxed(v) * v; }

/* rows allocated into a local table of pointers in a loop, each row read back in the same iteration */
double row_table(double v) {
  double *rows[6];
  for (int i = 0; i < 6; i++) {
    posix_memalign((void **)&rows[i], 16, sizeof(double) * (i + 1));
    rows[i][0] = v * (i + 1);
    rows[i][i] = rows[i][0] * v;
  }
  double s = 0;
  for (int i = 0; i < 6; i++) {
    s += rows[i][i] * rows[i][0];
    free(rows[i]);
  }
  return s;
}

/* a function Enzyme may treat as constant and move code across */
__attribute__((enzyme_inactive_noblock)) double tuning(double v) { return 3 * v; }
double tuned(double v) { return tuning(v) * v; }

/* malloc reached through a field of a global struct that nothing writes */
struct pool { int taken; void *(*get)(size_t); } heap_pool = {0, malloc};
__attribute__((noinline)) double *pooled(size_t n) { return heap_pool.get(n * sizeof(double)); }
double pool_square(double v) {
  double *m = pooled(1);
  m[0] = v;
  double r = m[0] * m[0];
  free(m);
  return r;
}

int main(void) {
  double x[6], dx[6];
  for (int j = 0; j < 6; j++) {
    for (int i = 0; i < 6; i++) {
      x[i] = 0.2 + 0.15 * i;
      dx[i] = i + 1;
    }
    split_gradient(x, dx, 6);
    double h = 1e-6, xp[6], xm[6];
    for (int i = 0; i < 6; i++) xp[i] = xm[i] = 0.2 + 0.15 * i;
    xp[j] += h;
    xm[j] -= h;
    check("split", j, dx[j], (weighted(xp, 6) - weighted(xm, 6)) / (2 * h));
  }
  for (int k = 0; k < 3; k++) {
    double a = 0.3 + k, b = 1.5 - k, c = 0.2 * k, h = 1e-6;
    grad3 g = cell_gradient(a, b, c);
    check("gx", k, g.dx, (cell(a + h, b, c) - cell(a - h, b, c)) / (2 * h));
    check("gy", k, g.dy, (cell(a, b + h, c) - cell(a, b - h, c)) / (2 * h));
    check("gz", k, g.dz, (cell(a, b, c + h) - cell(a, b, c - h)) / (2 * h));
  }
  for (int k = 0; k < 3; k++) {
    double a = 0.5 + 0.5 * k;
    /* (the derivative of the series of n + 1 terms is the primal's series of n terms, exactly) */
    check("iter1", k, d_series_exp(a), series_exp(a));
    check("iter2", k, dd_series_exp(a), series_exp(a));
  }
  for (int k = 0; k < 3; k++) {
    double t = 0.7 + k, q = 1.3 - 0.4 * k, h = 1e-6;
    tangents3 v = wave_directions(t, q);
    double dt = (wave(t + h, q) - wave(t - h, q)) / (2 * h), dk = (wave(t, q + h) - wave(t, q - h)) / (2 * h);
    check("width_t", k, v.d[0], dt);
    check("width_k", k, v.d[1], dk);
    check("width_mix", k, v.d[2], 0.5 * dt - 2 * dk);
  }
  for (int k = 0; k < 2; k++) {
    double a = 1.0 + k;
    check("alloc", k, __enzyme_autodiff((void *)unbox, a), 3 * a * a);
    check("pool", k, __enzyme_autodiff((void *)pool_square, a), 2 * a);
    check("noblock", k, __enzyme_autodiff((void *)tuned, a), tuning(a));
    check("rows", k, __enzyme_autodiff((void *)row_table, a),
          (row_table(a + 1e-6) - row_table(a - 1e-6)) / 2e-6);
  }
  return failures != 0;
}
