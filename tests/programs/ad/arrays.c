/* Gradients through loops, arrays and calls, checked against central finite differences on every input.
   Prints "label derivative finite-difference" per line. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

extern int enzyme_const, enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);

#define N 6

/* loop-carried reduction */
double dot(double *a, double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* array overwritten in place before the result is formed (values must be cached) */
double prefix_prod(double *a, int n) {
  double t[N];
  for (int i = 0; i < n; i++) t[i] = a[i] * a[i];
  for (int i = 1; i < n; i++) t[i] = t[i - 1] * t[i] + sin(t[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i];
  return s;
}

/* in-place update of the input itself */
void inplace(double *x, int n) {
  for (int i = 1; i < n; i++) x[i] = x[i] * x[i - 1] + 0.5 * x[i];
  for (int i = 0; i < n; i++) x[i] = exp(-x[i]) * x[i];
}

/* nested loops: matrix-vector product with a nonlinearity */
double mv(double *A, double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = 0;
    for (int j = 0; j < n; j++) r += A[i * n + j] * v[j];
    s += tanh(r);
  }
  return s;
}

/* a recurrence over time steps: h is read in the inner loop of every row (its cache needs no row dimension) and
   overwritten after each step */
double recur(double *W, double *restrict h, double *restrict t, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double a = 0.1 * s;
      for (int j = 0; j < n; j++) a += W[i * n + j] * h[j];
      t[i] = tanh(a) * h[i];
    }
    for (int i = 0; i < n; i++) h[i] = t[i] + 0.5 * h[i];
  }
  double l = 0;
  for (int i = 0; i < n; i++) l += h[i] * h[i];
  return l;
}

/* branches inside a loop, integer/float casts */
double branchy(double *a, int n) {
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    if (a[i] > 0.5) s = s * a[i];
    else s = s + a[i] * a[i];
    int k = (int)(a[i] * 3.0);
    s += k * a[i];
  }
  return s;
}

/* nested user calls */
double sq(double x) { return x * x; }
double mag(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sq(v[i]);
  return sqrt(s);
}
double nested(double *a, double y, int n) { return mag(a, n) * y + sq(y) * a[0]; }

/* recursion */
double rpow(double x, int k) {
  if (k == 0) return 1.0;
  return x * rpow(x, k - 1);
}
double use_rpow(double x) { return rpow(x, 5) + rpow(sin(x), 3); }
/* tree recursion reading an array */
double tree_rec(double *a, int k) {
  if (k < 2) return a[k];
  return tree_rec(a, k - 1) * 0.5 + tree_rec(a, k - 2) * a[k];
}

/* malloc'd scratch inside the function, scalar and array actives together */
double scratch(double *a, double w, int n) {
  double *t = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) t[i] = w * a[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] * a[i];
  free(t);
  return s;
}

/* strided loop, step 2, and a loop with a non-zero lower bound */
double strided(double *a, int n) {
  double s = 0;
  for (int i = 1; i < n; i += 2) s += a[i] * a[i - 1];
  for (int i = 2; i < n; i++) s += cos(a[i] * s);
  return s;
}


#define H 1e-6
#define CHECK_ARR(label, EXPR_CALL, x, dx, n)                                   \
  for (int i = 0; i < (n); i++) {                                              \
    double s_ = x[i];                                                          \
    x[i] = s_ + H; double fp_ = EXPR_CALL;                                     \
    x[i] = s_ - H; double fm_ = EXPR_CALL;                                     \
    x[i] = s_;                                                                 \
    printf("%s[%d] %.10g %.10g\n", label, i, dx[i], (fp_ - fm_) / (2 * H));    \
  }

int main(void) {
  double a[N], b[N], da[N], db[N], A[N * N], dA[N * N], v[N], dv[N];
  for (int i = 0; i < N; i++) { a[i] = 0.3 + 0.1 * i; b[i] = 1.0 - 0.15 * i; }
  for (int i = 0; i < N * N; i++) A[i] = 0.05 * ((i * 7) % 11) - 0.2;
  for (int i = 0; i < N; i++) v[i] = 0.2 * i - 0.4;

  for (int i = 0; i < N; i++) { da[i] = 0; db[i] = 0; }
  __enzyme_autodiff((void *)dot, a, da, b, db, N);
  CHECK_ARR("dot_a", dot(a, b, N), a, da, N);
  CHECK_ARR("dot_b", dot(a, b, N), b, db, N);

  {
    double h0[N], h[N], dh[N], t[N], dt[N], dW[N * N];
    for (int i = 0; i < N; i++) h0[i] = 0.2 + 0.1 * i;
    for (int i = 0; i < N; i++) { h[i] = h0[i]; dh[i] = dt[i] = 0; }
    for (int i = 0; i < N * N; i++) dW[i] = 0;
    __enzyme_autodiff((void *)recur, A, dW, h, dh, t, dt, N, 3);
    for (int k = 0; k < N * N; k += 5) {
      double s = A[k];
      for (int i = 0; i < N; i++) h[i] = h0[i];
      A[k] = s + H; double fp = recur(A, h, t, N, 3);
      for (int i = 0; i < N; i++) h[i] = h0[i];
      A[k] = s - H; double fm = recur(A, h, t, N, 3);
      A[k] = s;
      printf("recur_W[%d] %.10g %.10g\n", k, dW[k], (fp - fm) / (2 * H));
    }
    for (int k = 0; k < N; k++) {
      for (int i = 0; i < N; i++) h[i] = h0[i];
      h[k] += H; double fp = recur(A, h, t, N, 3);
      for (int i = 0; i < N; i++) h[i] = h0[i];
      h[k] -= H; double fm = recur(A, h, t, N, 3);
      printf("recur_h[%d] %.10g %.10g\n", k, dh[k], (fp - fm) / (2 * H));
    }
  }

  for (int i = 0; i < N; i++) da[i] = 0;
  __enzyme_autodiff((void *)prefix_prod, a, da, N);
  CHECK_ARR("prefix", prefix_prod(a, N), a, da, N);

  /* in-place: the gradient of sum_i w_i * x_out[i] with seed w in the shadow */
  {
    double x[N], x0[N], dx[N], w[N], y[N];
    for (int i = 0; i < N; i++) { x[i] = x0[i] = 0.4 + 0.05 * i; w[i] = 1.0 + 0.3 * i; dx[i] = w[i]; }
    __enzyme_autodiff_void((void *)inplace, x, dx, N); /* x now holds the primal result */
    for (int i = 0; i < N; i++) x[i] = x0[i];
    for (int k = 0; k < N; k++) {
      double s = x[k], fp = 0, fm = 0;
      for (int i = 0; i < N; i++) y[i] = x[i];
      y[k] = s + H; inplace(y, N); for (int i = 0; i < N; i++) fp += w[i] * y[i];
      for (int i = 0; i < N; i++) y[i] = x[i];
      y[k] = s - H; inplace(y, N); for (int i = 0; i < N; i++) fm += w[i] * y[i];
      printf("inplace[%d] %.10g %.10g\n", k, dx[k], (fp - fm) / (2 * H));
    }
  }

  for (int i = 0; i < N * N; i++) dA[i] = 0;
  for (int i = 0; i < N; i++) dv[i] = 0;
  __enzyme_autodiff((void *)mv, A, dA, v, dv, N);
  CHECK_ARR("mv_A", mv(A, v, N), A, dA, N * N);
  CHECK_ARR("mv_v", mv(A, v, N), v, dv, N);

  {
    double c[N], dc[N];  /* away from the branch and truncation points */
    for (int i = 0; i < N; i++) { c[i] = 0.27 + 0.11 * i; dc[i] = 0; }
    __enzyme_autodiff((void *)branchy, c, dc, N);
    CHECK_ARR("branchy", branchy(c, N), c, dc, N);
  }

  for (int i = 0; i < N; i++) da[i] = 0;
  double dy = __enzyme_autodiff((void *)nested, a, da, 0.7, N);
  CHECK_ARR("nested_a", nested(a, 0.7, N), a, da, N);
  printf("nested_y %.10g %.10g\n", dy, (nested(a, 0.7 + H, N) - nested(a, 0.7 - H, N)) / (2 * H));

  printf("rpow_rev %.10g %.10g\n", __enzyme_autodiff((void *)use_rpow, 0.8),
         (use_rpow(0.8 + H) - use_rpow(0.8 - H)) / (2 * H));
  printf("rpow_fwd %.10g %.10g\n", __enzyme_fwddiff((void *)use_rpow, 0.8, 1.0),
         (use_rpow(0.8 + H) - use_rpow(0.8 - H)) / (2 * H));

  for (int i = 0; i < N; i++) da[i] = 0;
  __enzyme_autodiff((void *)tree_rec, a, da, N - 1);
  CHECK_ARR("tree_rec", tree_rec(a, N - 1), a, da, N);

  for (int i = 0; i < N; i++) da[i] = 0;
  double dw = __enzyme_autodiff((void *)scratch, a, da, 1.3, N);
  CHECK_ARR("scratch_a", scratch(a, 1.3, N), a, da, N);
  printf("scratch_w %.10g %.10g\n", dw, (scratch(a, 1.3 + H, N) - scratch(a, 1.3 - H, N)) / (2 * H));

  for (int i = 0; i < N; i++) da[i] = 0;
  __enzyme_autodiff((void *)strided, a, da, N);
  CHECK_ARR("strided", strided(a, N), a, da, N);
  return 0;
}
