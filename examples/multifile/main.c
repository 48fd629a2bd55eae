/* Heat diffusion on a rod, built from several files: see the Makefile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "heat.h"

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : heat_steps;
  int n = heat_n;
  double *u = (double *)malloc(n * sizeof(double));
  grid_init(u, n);
  double before = grid_sum(u, n);
  printf("cells %d, steps %d, alpha %.2f\n", n, steps, heat_alpha);
  printf("before: sum %.6f max %.6f hot %d\n", before, grid_max(u, n), grid_count_above(u, n, 5.0));
  heat_run(u, n, steps, heat_alpha);
  double after = grid_sum(u, n);
  printf("after:  sum %.6f max %.6f hot %d\n", after, grid_max(u, n), grid_count_above(u, n, 5.0));
  for (int i = 0; i < n; i += n / 8) printf("u[%d] = %.9f\n", i, u[i]);
  printf("init calls %d\n", grid_init_calls());
  free(u);
  /* insulated ends: the heat is conserved up to rounding */
  return fabs(after - before) < 1e-6 * before ? 0 : 3;
}
