/* firstprivate under __enzyme_autodiff: each thread of the team starts from its own copy of `scale` and of
   `carry`, and its iterations see what its earlier ones stored there, so the function, and its gradient,
   depend on how the team shares the loop. The gradient is checked against central finite differences of the
   primal run by the same team (OMP_NUM_THREADS as the test sets it); prints "label derivative reference" and
   aborts when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out;
extern void __enzyme_double(void *);

void geometric(double *out, const double *x, double scale, int n) {
#pragma omp parallel for firstprivate(scale)
  for (int i = 0; i < n; i++) {
    out[i] = scale * x[i];
    scale = scale * 1.25 + x[i] * 0.5; /* what this thread's next iteration starts from */
    __enzyme_double(&scale);           /* (Enzyme's type hint: scale's address escapes, as in Enzyme's test) */
  }
}

double weighted(double *out, const double *x, double scale, int n) {
  geometric(out, x, scale, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * (1.0 + 0.1 * i);
  return s;
}

int main(void) {
  enum { N = 23 };
  double x[N], dx[N], out[N], dout[N];
  for (int i = 0; i < N; i++) { x[i] = 0.3 + 0.05 * (i % 7); dx[i] = 0; }
  double scale = 0.8;
  double dscale = __enzyme_autodiff((void *)weighted, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_out, scale,
                                    enzyme_const, N);
  const double h = 1e-6;
  double fd = (weighted(out, x, scale + h, N) - weighted(out, x, scale - h, N)) / (2 * h);
  int bad = 0;
  printf("dscale %.12g %.12g\n", dscale, fd);
  bad |= !(fabs(dscale - fd) <= 1e-6 * (1 + fabs(fd)));
  for (int k = 0; k < N; k += 5) {
    double keep = x[k];
    x[k] = keep + h;
    double up = weighted(out, x, scale, N);
    x[k] = keep - h;
    double down = weighted(out, x, scale, N);
    x[k] = keep;
    printf("dx[%d] %.12g %.12g\n", k, dx[k], (up - down) / (2 * h));
    bad |= !(fabs(dx[k] - (up - down) / (2 * h)) <= 1e-6 * (1 + fabs(dx[k])));
  }
  if (bad) abort();
  return 0;
}
