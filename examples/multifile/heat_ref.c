/* The same time steps in plain C (for builds without a CUDA compiler: make KERNEL=heat_ref.o). */
#include <stdlib.h>

#include "heat.h"

static void step(const double *in, double *out, int n, double alpha) {
  for (int i = 0; i < n; i++) {
    double l = in[i > 0 ? i - 1 : 0];
    double r = in[i < n - 1 ? i + 1 : n - 1];
    double c = in[i];
    out[i] = c + alpha * (l - 2.0 * c + r);
  }
}

void heat_run(double *u, int n, int steps, double alpha) {
  double *b = (double *)malloc(n * sizeof(double));
  for (int s = 0; s < steps; s += 2) {
    step(u, b, n, alpha);
    step(b, u, n, alpha);
  }
  free(b);
}
