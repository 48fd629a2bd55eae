/* Two dot products of blended vectors in one loop (the shape of a forward-mode derivative: a value and its
   tangent accumulated side by side) after a loop that fills the blends into heap arrays. At -O3 the polyhedral
   stage promotes the two sums into registers, replacing the top-level loop of the nest it generated; unroll-and-jam
   then walked the replaced loop and pgcc died with a segmentation fault. */
#include <stdio.h>
#include <stdlib.h>

double blended_dots(double *x, double *dx, double *y, double *dy, int n) {
  double *x2 = malloc(sizeof(double) * n), *d2 = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    x2[i] = x[i] * 0.9 + y[i] * 0.1;
    d2[i] = dx[i] * 0.9 + dy[i] * 0.1;
  }
  double r = 0, s = 0;
  for (int i = 0; i < n; i++) {
    r += y[i] * x2[i];
    s += x2[i] * dy[i] + y[i] * d2[i];
  }
  free(x2);
  free(d2);
  return r + s;
}

int main(void) {
  enum { N = 1000 };
  static double x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    x[i] = (i % 17) * 0.25 - 2.0;
    dx[i] = (i % 5) * 0.5;
    y[i] = 1.0 / (1 + i % 13);
    dy[i] = (i % 3) - 1.0;
  }
  for (int n = 0; n <= N; n += 333)
    printf("%d %.17g\n", n, blended_dots(x, dx, y, dy, n));
  return 0;
}
