/* `#pragma omp atomic` in differentiated OpenMP code: update (+=, -=) inside `parallel for` loops and inside
   parallel regions of several constructs, `atomic read`, `atomic write` and `atomic capture`. Reverse and forward
   mode against hand-derived values; run at 1 and 2 threads. Prints "label derivative reference"; aborts on a
   wrong derivative. */
#include <math.h>
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

#define N 6

/* bins[i % 2] -= x[i]^2 (atomic update into shared bins), then a product of the bins */
double binned(const double *x, double *bins, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
#pragma omp atomic
    bins[i % 2] -= v;
  }
  return bins[0] * bins[1];
}

/* a region: per-thread partial sums added atomically, a barrier, then a second loop reading the total */
double two_phase(const double *x, int n) {
  double s = 0, t = 0;
#pragma omp parallel
  {
    double local = 0;
#pragma omp for
    for (int i = 0; i < n; i++) local += sin(x[i]);
#pragma omp atomic
    s += local;
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) {
#pragma omp atomic update
      t += s * x[i];
    }
  }
  return t;
}

/* atomic read of the input, atomic write of the output, a single block adding to it */
double read_write(const double *x, double *y, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      double v;
#pragma omp atomic read
      v = x[i];
#pragma omp atomic write
      y[i] = v * v * v;
    }
#pragma omp single
    y[0] += y[1];
  }
  return y[0] * y[2] + y[n - 1];
}

/* a capture of the updated sum, in a loop whose reduction runs in a critical section: the derivative runs it with a
   team of one thread (ad/openmp_serial.py), so `now` is acc + x[0] + ... + x[i] */
double captured(const double *x, double *acc, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double now;
#pragma omp atomic capture
    now = acc[0] += x[i];
    s += now + x[i] * x[i];
  }
  return s + acc[0];
}

int main(void) {
  double x[N] = {0.5, -1.0, 1.5, 0.25, 2.0, -0.75}, v[N] = {1, -0.5, 0.25, 2, 0.5, 1};

  double bins[2] = {1.0, 2.0}, dbins[2] = {0.0, 0.0}, dx[N] = {0};
  __enzyme_autodiff((void *)binned, x, dx, bins, dbins, N);
  double b0 = 1.0, b1 = 2.0;
  for (int i = 0; i < N; i++) *(i % 2 ? &b1 : &b0) -= x[i] * x[i];
  for (int i = 0; i < N; i++) APPROX_EQ("binned", i, dx[i], -2 * x[i] * (i % 2 ? b0 : b1));
  APPROX_EQ("binned_bins", 0, dbins[0], b1);
  APPROX_EQ("binned_bins", 1, dbins[1], b0);
  double tb[2] = {0.5, -1.0}, tw = 0;
  bins[0] = 1.0, bins[1] = 2.0;
  for (int i = 0; i < N; i++) tw += -2 * x[i] * v[i] * (i % 2 ? b0 : b1);
  tw += 0.5 * b1 - 1.0 * b0;
  APPROX_EQ("binned_fwd", 0, __enzyme_fwddiff((void *)binned, x, v, bins, tb, N), tw);

  double s = 0, sx = 0;
  for (int i = 0; i < N; i++) s += sin(x[i]), sx += x[i];
  double d2[N] = {0}, t2 = 0;
  __enzyme_autodiff((void *)two_phase, x, d2, N);
  for (int i = 0; i < N; i++) {
    double want = s + cos(x[i]) * sx;
    APPROX_EQ("two_phase", i, d2[i], want);
    t2 += want * v[i];
  }
  APPROX_EQ("two_phase_fwd", 0, __enzyme_fwddiff((void *)two_phase, x, v, N), t2);

  double y[N], dy[N] = {0}, d3[N] = {0};
  __enzyme_autodiff((void *)read_write, x, d3, y, dy, N);
  /* y0 = x0^3 + x1^3, y2 = x2^3, y5 = x5^3: r = y0 y2 + y5 */
  double y0 = pow(x[0], 3) + pow(x[1], 3), y2 = pow(x[2], 3);
  double w3[N] = {3 * x[0] * x[0] * y2, 3 * x[1] * x[1] * y2, 3 * x[2] * x[2] * y0, 0, 0, 3 * x[5] * x[5]};
  double t3 = 0;
  for (int i = 0; i < N; i++) {
    APPROX_EQ("read_write", i, d3[i], w3[i]);
    t3 += w3[i] * v[i];
  }
  double ty[N] = {0};
  APPROX_EQ("read_write_fwd", 0, __enzyme_fwddiff((void *)read_write, x, v, y, ty, N), t3);

  double acc[1] = {0.5}, dacc[1] = {0}, d4[N] = {0};
  __enzyme_autodiff((void *)captured, x, d4, acc, dacc, N);
  for (int i = 0; i < N; i++) APPROX_EQ("captured", i, d4[i], (N - i) + 2 * x[i] + 1);
  APPROX_EQ("captured_acc", 0, dacc[0], N + 1.0);
  return 0;
}
