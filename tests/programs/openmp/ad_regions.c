/* Derivatives through `#pragma omp parallel` regions that hold several constructs (compile with -fopenmp):
   a per-thread partial sum over an `omp for` added to the result in a `critical` section (float and double),
   two `omp for` loops separated by a `single` block and a barrier, a collapsed 2-d `omp for` with a
   `master` block, a loop-local and a private(t) variable passed by address to a helper inside `parallel for`
   (the first with `#pragma nounroll` between the pragma and its loop). Reverse mode against central finite
   differences, forward mode against reverse mode (the dot-product test). Prints "label derivative reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>

extern int enzyme_const, enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 23
static int failures;

static void check(const char *label, int i, double got, double want, double tol) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) failures++;
}

/* partial sums per thread, combined under a critical section */
double partial_sums(const double *a, int n) {
  double res = 0.0;
  #pragma omp parallel
  {
    double mine = 0.0;
    #pragma omp for
    for (int i = 0; i < n; i++)
      mine += a[i] * a[i] * sin(a[i]);
    #pragma omp critical
    {
      res += mine;
    }
  }
  return res;
}

float partial_sums_float(const float *a, int n) {
  float res = 0.0f;
  #pragma omp parallel
  {
    float mine = 0.0f;
    #pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      mine += a[i] * a[i];
    #pragma omp critical(total)
    res += mine;
  }
  return res;
}

/* y = f(x) in one loop, a scale computed once by one thread, z = g(y) in a second loop */
double two_loops(const double *x, double *y, int n) {
  double scale = 0, s = 0;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = exp(0.3 * x[i]) * x[(i + 1) % n];
    #pragma omp single
    scale = 1.0 + y[0] * y[n - 1];
    #pragma omp barrier
    double mine = 0;
    #pragma omp for nowait
    for (int i = 0; i < n; i++)
      mine += y[i] * scale;
    #pragma omp critical
    s += mine;
  }
  return s;
}

/* a collapsed pair of loops; the master thread adds a correction */
double pairs(const double *x, int n) {
  double e = 0;
  #pragma omp parallel
  {
    double mine = 0;
    #pragma omp for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        mine += exp(-(x[i] - x[j]) * (x[i] - x[j])) * x[j];
    #pragma omp critical
    e += mine;
    #pragma omp barrier
    #pragma omp master
    e += x[0] * x[1];  /* (after the barrier: every critical update is done) */
  }
  return e;
}

static double two_loops_value(const double *x, int n) {
  double y[N];
  return two_loops(x, y, n);
}

/* a thread's own local written through its address by a helper, in `parallel for` loops */
static void cell_value(const double *x, int i, double *out) { *out = x[i] * x[i] + sin(x[i]); }

double by_address(const double *x, int n) {
  double y[N], t, e = 0;
  #pragma omp parallel for
  #pragma nounroll
  for (int i = 0; i < n; i++) {
    double local;
    cell_value(x, i, &local);
    y[i] = local * x[(i + 1) % n];
  }
  #pragma omp parallel for private(t) reduction(+:e)
  for (int i = 0; i < n; i++) {
    cell_value(y, i, &t);
    e += t * x[i];
  }
  return e;
}

typedef double (*objective)(const double *, int);

static double central(objective f, double *x, int i) {
  double keep = x[i], h = 1e-6;
  x[i] = keep + h; double up = f(x, N);
  x[i] = keep - h; double dn = f(x, N);
  x[i] = keep;
  return (up - dn) / (2 * h);
}

int main(void) {
  double x[N], dx[N], v[N];
  for (int i = 0; i < N; i++) { x[i] = 0.2 + 0.07 * i - 0.002 * i * i; v[i] = sin(1.0 + i); }

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)partial_sums, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check("crit", i, dx[i], central(partial_sums, x, i), 1e-6);
  double jv = __enzyme_fwddiff((void *)partial_sums, enzyme_dup, x, v, enzyme_const, N), dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  check("crit_dot", 0, jv, dot, 1e-10);

  float xf[N], dxf[N];
  for (int i = 0; i < N; i++) { xf[i] = (float)x[i]; dxf[i] = 0; }
  __enzyme_autodiff((void *)partial_sums_float, enzyme_dup, xf, dxf, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check("critf", i, dxf[i], 2.0 * xf[i], 1e-5);

  double y[N], dy[N];
  for (int i = 0; i < N; i++) { dx[i] = 0; dy[i] = 0; }
  __enzyme_autodiff((void *)two_loops, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check("single", i, dx[i], central(two_loops_value, x, i), 1e-6);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)pairs, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check("master", i, dx[i], central(pairs, x, i), 1e-6);
  jv = __enzyme_fwddiff((void *)pairs, enzyme_dup, x, v, enzyme_const, N);
  dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  check("master_dot", 0, jv, dot, 1e-10);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)by_address, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check("address", i, dx[i], central(by_address, x, i), 1e-6);
  jv = __enzyme_fwddiff((void *)by_address, enzyme_dup, x, v, enzyme_const, N);
  dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  check("address_dot", 0, jv, dot, 1e-10);
  return failures ? 1 : 0;
}
