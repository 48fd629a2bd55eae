/* realloc in reverse mode of memory that is not an array of doubles: an array of row pointers grown by doubling
   while it is filled, an array of records holding two pointers grown once at the top level, an int index array
   grown next to a float array, and a float (not double) buffer grown in a loop. Shadow pointers follow the
   primal pointers as realloc moves them. Reverse mode against hand-derived values. Prints "label derivative
   reference"; aborts on a wrong derivative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define APPROX_EQ(label, i, got, want)                                                   \
  do {                                                                                  \
    double got_ = (got), want_ = (want);                                                \
    printf("%s_%d %.12g %.12g\n", label, i, got_, want_);                               \
    fflush(stdout);                                                                     \
    if (!(fabs(got_ - want_) <= 1e-6 * (1 + fabs(want_)))) abort();                     \
  } while (0)

#define N 7

/* t[i] = &x[(3 i) % n], t grown by doubling; r = sum_i t[i][0] * t[n-1-i][0] */
double row_pointers(double *x, int n) {
  double **t = malloc(sizeof(double *));
  int cap = 1;
  for (int i = 0; i < n; i++) {
    if (i == cap) {
      cap *= 2;
      t = realloc(t, cap * sizeof(double *));
    }
    t[i] = x + (3 * i) % n;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += t[i][0] * t[n - 1 - i][0] * (i + 1);
  free(t);
  return r;
}

typedef struct { const double *a, *b; } edge;

/* two edges, then the array grows and more edges are added: sum a*b + sin(a) */
double edges(const double *x, int n) {
  edge *e = malloc(2 * sizeof(edge));
  e[0].a = x, e[0].b = x + 1;
  e[1].a = x + 2, e[1].b = x;
  e = realloc(e, n * sizeof(edge));
  for (int i = 2; i < n; i++) e[i].a = x + i, e[i].b = x + i - 1;
  double s = 0;
  for (int i = 0; i < n; i++) s += *e[i].a * *e[i].b + sin(*e[i].a);
  free(e);
  return s;
}

/* an int index array grown in a loop selects which squares go into a float buffer grown in the same loop */
double indexed_float(const float *x, int n) {
  int *idx = NULL;
  float *buf = NULL;
  int len = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0) continue;
    idx = realloc(idx, (len + 1) * sizeof(int));
    buf = realloc(buf, (len + 1) * sizeof(float));
    idx[len] = i;
    buf[len] = x[i] * x[i];
    len++;
  }
  double s = 0;
  for (int k = 0; k < len; k++) s += buf[k] * x[idx[k] - 1];
  free(idx);
  free(buf);
  return s;
}

int main(void) {
  double x[N] = {0.5, -1.0, 1.5, 0.25, 2.0, -0.75, 1.25}, dx[N] = {0}, want[N] = {0};
  __enzyme_autodiff((void *)row_pointers, x, dx, N);
  for (int i = 0; i < N; i++) {
    int a = (3 * i) % N, b = (3 * (N - 1 - i)) % N;
    want[a] += x[b] * (i + 1);
    want[b] += x[a] * (i + 1);
  }
  for (int i = 0; i < N; i++) APPROX_EQ("row_pointers", i, dx[i], want[i]);

  double d2[N] = {0}, w2[N] = {0};
  __enzyme_autodiff((void *)edges, x, d2, N);
  int ea[N] = {0, 2}, eb[N] = {1, 0};
  for (int i = 2; i < N; i++) ea[i] = i, eb[i] = i - 1;
  for (int i = 0; i < N; i++) {
    w2[ea[i]] += x[eb[i]] + cos(x[ea[i]]);
    w2[eb[i]] += x[ea[i]];
  }
  for (int i = 0; i < N; i++) APPROX_EQ("edges", i, d2[i], w2[i]);

  float xf[N] = {0.5f, -1.0f, 1.5f, 0.25f, 2.0f, -0.75f, 1.25f}, df[N] = {0};
  double w3[N] = {0};
  __enzyme_autodiff((void *)indexed_float, xf, df, N);
  for (int i = 1; i < N; i += 2) {
    w3[i] += 2.0 * xf[i] * xf[i - 1];
    w3[i - 1] += (double)xf[i] * xf[i];
  }
  for (int i = 0; i < N; i++) APPROX_EQ("indexed_float", i, df[i], w3[i]);
  return 0;
}
