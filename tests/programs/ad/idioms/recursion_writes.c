/* Reverse mode through recursive functions that write memory they do not allocate, some of it after the
   recursive call: an accumulator updated before and after the call (a read-modify-write the reverse sweep must
   not repeat), a merge sort through a scratch buffer, one returning a value built from what it stored, the
   recursive call in a loop of the caller, and a record the caller changes after the call read it. The forward
   sweep runs each recursive call's augmented forward pass, which keeps a tape; the reverse sweep runs its
   reverse from the tape. Against central differences. Prints "label derivative reference"; aborts on a wrong
   derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-5 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 9

static void accumulate(const double *x, double *out, int k) {
  if (k < 0) return;
  out[0] += x[k] * x[k];
  accumulate(x, out, k - 1);
  out[0] *= 1.1 + 0.1 * sin(x[k]);
}
double accumulated(double *x, int n) {
  double total[1] = {0.5};
  accumulate(x, total, n - 1);
  return total[0];
}

static void merge_sort(double *a, int n, double *scratch) {
  if (n < 2) return;
  int half = n / 2;
  merge_sort(a, half, scratch);
  merge_sort(a + half, n - half, scratch);
  int i = 0, j = half, k = 0;
  while (i < half && j < n) scratch[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < half) scratch[k++] = a[i++];
  while (j < n) scratch[k++] = a[j++];
  for (k = 0; k < n; k++) a[k] = scratch[k];
}
double sorted_weights(double *x, int n) {
  double *scratch = malloc(n * sizeof(double));
  merge_sort(x, n, scratch);
  free(scratch);
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * (i + 1) * sin(x[i]);
  return s;
}

static double running(const double *x, double *out, int k) {
  if (k < 0) return 0;
  double r = running(x, out, k - 1);
  out[k] = r + sin(x[k]);
  return out[k] * 0.5 + r * x[k];
}
double run_total(double *x, int n) {
  double out[N];
  double v = running(x, out, n - 1);
  return v * out[0] + out[n - 1];
}

/* the recursive call in a loop of the caller: one tape per iteration */
static void fill(const double *x, double *out, int k) {
  if (k < 0) return;
  fill(x, out, k - 1);
  out[k] = out[k] * 0.5 + sin(x[k]) * (k > 0 ? out[k - 1] : 1.0);
}
double repeated_fill(double *x, int n) {
  double out[N];
  for (int i = 0; i < n; i++) out[i] = 0.1 * i;
  for (int t = 0; t < 3; t++) fill(x, out, n - 1 - t);
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * out[i];
  return s;
}

/* a record copied, changed, passed down, then changed again after the call (what the deeper call read) */
typedef struct { int n; double w; } level;
double descend(level *r) {
  if (r->n > 0) {
    level c = *r;
    c.n -= 1;
    double v = descend(&c);
    c.w = 0;
    return v + c.w + sin(r->w) * c.n;
  }
  return r->w * r->w;
}

typedef double (*objective)(double *, int);

static void start(double *x) {
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.07 * ((i * 5) % N) - (i == 4) * 0.5;
}

static void check(const char *label, objective f, const double *grad) {
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-6;
    start(xp), start(xm);
    xp[i] += h, xm[i] -= h;
    APPROX_EQ(label, i, grad[i], (f(xp, N) - f(xm, N)) / (2 * h));
  }
}

#define REVERSE(f)                                                                      \
  do {                                                                                  \
    double x[N], d[N] = {0};                                                            \
    start(x);                                                                           \
    __enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, N);                    \
    check(#f, f, d);                                                                    \
  } while (0)

int main(void) {
  REVERSE(accumulated);
  REVERSE(sorted_weights);
  REVERSE(run_total);
  REVERSE(repeated_fill);
  for (int k = 0; k < 3; k++) {
    level r = {3 + k, 0.4 * k + 0.3}, dr = {0, 0}, up = r, down = r;
    __enzyme_autodiff((void *)descend, &r, &dr);
    up.w += 1e-6, down.w -= 1e-6;
    APPROX_EQ("descend", k, dr.w, (descend(&up) - descend(&down)) / 2e-6);
  }
  return 0;
}
