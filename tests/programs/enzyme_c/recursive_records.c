/* Recursion over records that carry pointers into the differentiated input, as divide-and-conquer codes write
   it: a malloc'd record filled field by field or copied from the caller's (`*half = *whole`), passed to the
   recursive call and freed right after it; results written through an output pointer after a recursive call
   whose arguments it may alias. Reverse mode against central finite differences. Prints "label derivative
   reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern void __enzyme_autodiff(void *, ...);

#define N 8
static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-4 * (1 + fabs(want)))) failures++;
}

typedef struct { long first; const double *vals; long last; } span;

/* one record per level, filled field by field: sum of squares of vals[first..last) */
double chain_energy(const span *s) {
  if (s->first >= s->last) return 0;
  span *rest = malloc(sizeof(span));
  rest->vals = s->vals;
  rest->first = s->first + 1;
  rest->last = s->last;
  double here = s->vals[s->first] * s->vals[s->first];
  double tail = chain_energy(rest);
  free(rest);
  return here + 0.5 * tail;
}

/* halves copied from the caller's record, then narrowed */
double tree_energy(const span *s) {
  if (s->last - s->first > 2) {
    long mid = s->first + (s->last - s->first) / 2;
    span *lo = malloc(sizeof(span)), *hi = malloc(sizeof(span));
    *lo = *s;
    *hi = *s;
    lo->last = mid;
    hi->first = mid;
    double a = tree_energy(lo);
    double b = tree_energy(hi);
    free(lo);
    free(hi);
    return a * b + a;
  }
  double t = 0;
  for (long i = s->first; i < s->last; i++) t += sin(s->vals[i]) + s->vals[i];
  return t;
}

/* halves copied from the caller's record, leaves summed by a loop; the sum stored through an output pointer
   after the call (it may alias the record's memory but is a double the derivative never needs) */
double tile_sum(const span *s) {
  if (s->last - s->first > 2) {
    long mid = s->first + (s->last - s->first) / 2;
    span *lo = malloc(sizeof(span)), *hi = malloc(sizeof(span));
    *lo = *s;
    *hi = *s;
    lo->last = mid;
    hi->first = mid;
    double a = tile_sum(lo), b = tile_sum(hi);
    free(lo);
    free(hi);
    return a + b;
  }
  double t = 0;
  for (long i = s->first; i < s->last; i++) t += s->vals[i];
  return t;
}
void tile_out(const span *s, double *out) { *out = tile_sum(s) * tile_sum(s); }

/* two input pointers read by every level; the result stored through a third pointer after the calls */
double pair_sum(const double *a, const double *b, int depth) {
  if (depth <= 0) return *a + *b;
  return pair_sum(a, b, depth - 1) + pair_sum(a, b, depth - 2);
}
void pair_out(const double *a, const double *b, double *out, int depth) { *out = pair_sum(a, b, depth) * *a; }

double run_chain(const double *x) {
  span s = {0, x, N};
  return chain_energy(&s);
}
double run_tree(const double *x) {
  span s = {0, x, N};
  return tree_energy(&s);
}
double run_tile(const double *x) {
  span s = {0, x, N};
  double out;
  tile_out(&s, &out);
  return out;
}
double run_pair(const double *x) {
  double out;
  pair_out(x, x + 1, &out, 6);
  return out;
}

typedef double (*fn)(const double *);

static void compare(const char *label, fn f, const double *x) {
  double dx[N] = {0}, y[N];
  span s = {0, x, N}, ds = {0, dx, N};
  if (f == run_chain) __enzyme_autodiff((void *)chain_energy, &s, &ds);
  else if (f == run_tree) __enzyme_autodiff((void *)tree_energy, &s, &ds);
  else if (f == run_tile) {
    double out = 0, dout = 1;
    __enzyme_autodiff((void *)tile_out, &s, &ds, &out, &dout);
  }
  else {
    double out = 0, dout = 1;
    __enzyme_autodiff((void *)pair_out, x, dx, x + 1, dx + 1, &out, &dout, 6);
  }
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < N; k++) y[k] = x[k];
    double h = 1e-6;
    y[i] = x[i] + h;
    double up = f(y);
    y[i] = x[i] - h;
    double down = f(y);
    if (f == run_pair && i > 1) continue;
    check(label, i, dx[i], (up - down) / (2 * h));
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.11 * i;
  compare("chain", run_chain, x);
  compare("tree", run_tree, x);
  compare("tile", run_tile, x);
  compare("pair", run_pair, x);
  return failures != 0;
}
