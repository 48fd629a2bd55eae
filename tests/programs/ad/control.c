/* Data-dependent control flow: while loops, break, loops whose bounds depend on an enclosing loop, a while loop
   inside a for loop, a for loop inside a while loop. Both modes against central finite differences. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 6
#define H 1e-6

double grow(double x) {
  double s = x;
  int i = 0;
  while (s < 100.0 && i < 50) { s = s * x + sin(s); i++; }
  return s;
}

double early_exit(double *a, int n) {
  double s = 1;
  for (int i = 0; i < n; i++) {
    if (a[i] > 3) break;
    s += a[i] * sin(a[i] * s);
  }
  return s;
}

double triangle(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) s += sin(a[i] * a[j] + s);
  return s;
}

/* Newton iterations for sqrt(a[i]) until converged: a while loop per element */
double newton(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = a[i];
    int it = 0;
    while (fabs(r * r - a[i]) > 1e-13 && it < 100) { r = 0.5 * (r + a[i] / r); it++; }
    s += r * a[i];
  }
  return s;
}

/* a for loop inside a while loop, with an array updated in place */
double relax(double *a, int n) {
  double t[N];
  for (int i = 0; i < n; i++) t[i] = a[i];
  double res = 1.0;
  int sweeps = 0;
  while (sweeps < 4 || res > 0.5) {
    res = 0;
    for (int i = 1; i < n - 1; i++) {
      double nv = 0.25 * (t[i - 1] + 2 * t[i] + t[i + 1]);
      res += fabs(nv - t[i]);
      t[i] = nv;
    }
    sweeps++;
    if (sweeps > 20) break;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] * a[i];
  return s;
}

/* a loop nest inside a branch, its values cached (the cache is allocated even when the branch is not taken) */
double branch_loop(double *a, int n) {
  double s = a[0];
  if (s > 0.2) {
    for (int i = 1; i < n; i++) { s = s + s / 1.59; s = sin(cos(s * a[i])); }
  } else {
    int it = 0;
    while (it < 3 && s < 5.0) { s = s + 0.3 / (1.5 + a[1] * a[1]); it++; }
  }
  return sqrt(1.0 + s * s);
}

#define CHECK(label, f)                                                                \
  {                                                                                    \
    double da[N];                                                                      \
    for (int i = 0; i < N; i++) da[i] = 0;                                             \
    __enzyme_autodiff((void *)f, a, da, N);                                            \
    for (int i = 0; i < N; i++) {                                                      \
      double s = a[i], v[N];                                                           \
      a[i] = s + H; double fp = f(a, N);                                               \
      a[i] = s - H; double fm = f(a, N);                                               \
      a[i] = s;                                                                        \
      for (int k = 0; k < N; k++) v[k] = k == i;                                       \
      printf("%s_rev[%d] %.10g %.10g\n", label, i, da[i], (fp - fm) / (2 * H));       \
      printf("%s_fwd[%d] %.10g %.10g\n", label, i, __enzyme_fwddiff((void *)f, a, v, N), (fp - fm) / (2 * H)); \
    }                                                                                  \
  }

int main(void) {
  double x = 1.7;
  printf("grow_rev %.10g %.10g\n", __enzyme_autodiff((void *)grow, x), (grow(x + H) - grow(x - H)) / (2 * H));
  printf("grow_fwd %.10g %.10g\n", __enzyme_fwddiff((void *)grow, x, 1.0), (grow(x + H) - grow(x - H)) / (2 * H));
  double a[N] = {0.5, 1.1, 1.5, 2.5, 3.5, 0.9};
  CHECK("early_exit", early_exit);
  CHECK("triangle", triangle);
  CHECK("newton", newton);
  CHECK("relax", relax);
  CHECK("branch_loop", branch_loop);
  a[0] = 0.1;  /* the other branch */
  CHECK("branch_loop_else", branch_loop);
  return 0;
}
