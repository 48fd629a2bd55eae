/* Jacobi relaxation of a 2-D grid in one parallel region: the time loop runs in every thread, the sweeps are
   worksharing loops (one without its barrier), a single thread updates the shared convergence state, an
   explicit barrier ends each step, and the grid's extent is read through a pointer to its descriptor. */
#include <math.h>
#include <stdio.h>
#include <omp.h>

#define NX 66
#define NY 50

typedef struct { int n, m; double h; } grid;

static double u[NX][NY], v[NX][NY], f[NX][NY];

static void init(const grid *g) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < g->n; i++)
    for (int j = 0; j < g->m; j++) {
      u[i][j] = 0.0;
      f[i][j] = sin(0.1 * i) * cos(0.07 * j);
    }
}

int main(void) {
  grid g = {NX, NY, 1.0 / (NX - 1)};
  grid *gp = &g;
  init(gp);
  int steps = 0, last_row = -1;
  double resid = 1.0, t0 = omp_get_wtime();
#pragma omp parallel
  {
    for (int it = 0; it < 40; it++) {
      double local = 0.0;
#pragma omp for nowait
      for (int i = 1; i < gp->n - 1; i++)
#pragma GCC unroll 2
        for (int j = 1; j < gp->m - 1; j++)
          v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - gp->h * gp->h * f[i][j]);
#pragma omp barrier
#pragma omp for reduction(max : resid) lastprivate(last_row)
      for (int i = 1; i < gp->n - 1; i++) {
        for (int j = 1; j < gp->m - 1; j++) {
          double d = fabs(v[i][j] - u[i][j]);
          u[i][j] = v[i][j];
          local = d > local ? d : local;
        }
        resid = local > resid ? local : resid;
        last_row = i;
      }
#pragma omp single
      {
        steps++;
        if (it % 10 == 9) printf("step %d resid %.6e\n", steps, resid);
        resid = 0.0;
      }
#pragma omp barrier
    }
  }
  double sum = 0.0, mn = 1e300;
#pragma omp parallel for reduction(+ : sum) reduction(min : mn)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) { sum += u[i][j]; mn = u[i][j] < mn ? u[i][j] : mn; }
  printf("steps %d last_row %d sum %.8e min %.8e clock %d\n", steps, last_row, sum, mn, omp_get_wtime() >= t0);
  return 0;
}
