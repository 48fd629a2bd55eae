/* Derivatives through `#pragma omp parallel for` loops (compile with -fopenmp). Prints
   "label derivative reference" lines: reverse mode against central finite differences, and forward mode
   against reverse mode (the dot-product test <w, J v> = <J^T w, v>). */
#include <stdio.h>
#include <math.h>

extern int enzyme_const, enzyme_dup;
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff_d(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff_d(void *, ...);

#define N 29

/* injective: iteration i reads x[i], x[i+1] and writes y[i] only */
void smooth(const double *x, double *y, int n) {
  #pragma omp parallel for schedule(static)
  for (int i = 0; i < n - 1; i++)
    y[i] = sin(x[i]) * x[i + 1] + 0.5 * x[i] * x[i];
}

/* every iteration reads x[0] (its shadow collects all iterations' adjoints) */
void broadcast(const double *x, double *y, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i] * exp(0.1 * x[0]) + x[0];
}

/* scatter through an index array (a permutation, so the primal is race-free) */
void scatter(const double *x, const int *idx, const double *w, double *out, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[idx[i]] += w[i] * x[i] * x[(i + 3) % n];
}

/* a sum reduction, returned */
double sumsq(const double *x, int n) {
  double s = 0.0;
  #pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * cos(x[i]);
  return s * 2.0;
}

/* reduction and private scalars in a 2-d nest with collapse */
double energy(const double *x, int n) {
  double e = 1.0;
  double d;
  #pragma omp parallel for collapse(2) private(d) reduction(+:e)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      d = x[i] - x[j];
      e += exp(-d * d) * x[j];
    }
  return e;
}

static double loss(double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += cos(1.0 + i) * y[i];
  return s;
}

int main(void) {
  double x[N], dx[N], y[N], dy[N], w[N], out[N], dout[N], v[N], jv[N], xp[N], xm[N];
  int idx[N];
  const double h = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.05 * i - 0.002 * i * i;
    w[i] = 1.0 + 0.1 * i;
    idx[i] = (7 * i + 3) % N;  /* 7 and 29 are coprime: a permutation */
    v[i] = sin(2.0 + i);
  }
  /* smooth and broadcast: d/dx of loss(f(x)) with the shadow of y seeded by loss's gradient */
#define CHECK_MAP(F)                                                                            \
  for (int i = 0; i < N; i++) { dx[i] = 0; dy[i] = cos(1.0 + i); y[i] = 0; }                   \
  __enzyme_autodiff((void *)F, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);         \
  for (int k = 0; k < N; k += 4) {                                                             \
    for (int i = 0; i < N; i++) { xp[i] = x[i]; xm[i] = x[i]; y[i] = 0; }                      \
    xp[k] += h; xm[k] -= h;                                                                    \
    F(xp, y, N); double lp = loss(y, N);                                                       \
    for (int i = 0; i < N; i++) y[i] = 0;                                                      \
    F(xm, y, N); double lm = loss(y, N);                                                       \
    printf(#F "_x%d %.12g %.12g\n", k, dx[k], (lp - lm) / (2 * h));                            \
  }                                                                                            \
  for (int i = 0; i < N; i++) { jv[i] = 0; y[i] = 0; }                                         \
  __enzyme_fwddiff((void *)F, enzyme_dup, x, v, enzyme_dup, y, jv, enzyme_const, N);           \
  a = 0; b = 0;                                                                                \
  for (int i = 0; i < N; i++) { a += cos(1.0 + i) * jv[i]; b += dx[i] * v[i]; }                \
  printf(#F "_dot %.12g %.12g\n", a, b);
  double a, b;
  CHECK_MAP(smooth)
  CHECK_MAP(broadcast)
  /* scatter */
  for (int i = 0; i < N; i++) { dx[i] = 0; out[i] = 0; dout[i] = cos(1.0 + i); }
  __enzyme_autodiff((void *)scatter, enzyme_dup, x, dx, enzyme_const, idx, enzyme_const, w,
                    enzyme_dup, out, dout, enzyme_const, N);
  for (int k = 0; k < N; k += 4) {
    for (int i = 0; i < N; i++) { xp[i] = x[i]; xm[i] = x[i]; out[i] = 0; }
    xp[k] += h; xm[k] -= h;
    scatter(xp, idx, w, out, N); double lp = loss(out, N);
    for (int i = 0; i < N; i++) out[i] = 0;
    scatter(xm, idx, w, out, N); double lm = loss(out, N);
    printf("scatter_x%d %.12g %.12g\n", k, dx[k], (lp - lm) / (2 * h));
  }
  for (int i = 0; i < N; i++) { jv[i] = 0; out[i] = 0; }
  __enzyme_fwddiff((void *)scatter, enzyme_dup, x, v, enzyme_const, idx, enzyme_const, w,
                   enzyme_dup, out, jv, enzyme_const, N);
  a = 0; b = 0;
  for (int i = 0; i < N; i++) { a += cos(1.0 + i) * jv[i]; b += dx[i] * v[i]; }
  printf("scatter_dot %.12g %.12g\n", a, b);
  /* reductions: gradient of a returned scalar */
#define CHECK_SCALAR(F)                                                                          \
  for (int i = 0; i < N; i++) dx[i] = 0;                                                         \
  __enzyme_autodiff((void *)F, x, dx, N);                                                        \
  for (int k = 0; k < N; k += 4) {                                                               \
    for (int i = 0; i < N; i++) { xp[i] = x[i]; xm[i] = x[i]; }                                  \
    xp[k] += h; xm[k] -= h;                                                                      \
    printf(#F "_x%d %.12g %.12g\n", k, dx[k], (F(xp, N) - F(xm, N)) / (2 * h));                  \
  }                                                                                              \
  a = __enzyme_fwddiff_d((void *)F, x, v, N);                                                    \
  b = 0;                                                                                         \
  for (int i = 0; i < N; i++) b += dx[i] * v[i];                                                 \
  printf(#F "_dot %.12g %.12g\n", a, b);
  CHECK_SCALAR(sumsq)
  CHECK_SCALAR(energy)
  return 0;
}
