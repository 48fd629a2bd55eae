/* Molecular dynamics in the style of the classic OpenMP md benchmark: Lennard-Jones-like pair forces on
   particles in a box, velocity Verlet steps; potential and kinetic energies are reductions, the force on
   each particle is accumulated by the thread that owns it, and a parallel region runs several loops. */
#include <math.h>
#include <stdio.h>
#include <omp.h>

#define NP 96
#define ND 3
#define STEPS 6

typedef struct { double pos[ND], vel[ND], acc[ND], f[ND]; } particle;

static particle p[NP];

static double pair(double r2) {
  double s6 = 1.0 / (r2 * r2 * r2);
  return s6 * (s6 - 1.0);
}

static void compute(int np, double *pot, double *kin, double mass) {
  double epot = 0.0, ekin = 0.0;
#pragma omp parallel for reduction(+ : epot, ekin) schedule(static)
  for (int i = 0; i < np; i++) {
    double fi[ND] = {0.0, 0.0, 0.0};
    for (int j = 0; j < np; j++) {
      if (j == i) continue;
      double d[ND], r2 = 0.25;
      for (int k = 0; k < ND; k++) { d[k] = p[i].pos[k] - p[j].pos[k]; r2 += d[k] * d[k]; }
      epot += 0.5 * pair(r2);
      double g = 12.0 * pair(r2) / r2;
      for (int k = 0; k < ND; k++) fi[k] += g * d[k];
    }
    for (int k = 0; k < ND; k++) { p[i].f[k] = fi[k]; ekin += 0.5 * mass * p[i].vel[k] * p[i].vel[k]; }
  }
  *pot = epot;
  *kin = ekin;
}

int main(void) {
  const double dt = 1e-3, mass = 1.0;
  double pot, kin, e0 = 0.0, fmax = 0.0, fmin = 1e300;
  for (int i = 0; i < NP; i++)
    for (int k = 0; k < ND; k++) {
      p[i].pos[k] = 1.3 * (k == 0 ? i % 4 : k == 1 ? (i / 4) % 4 : i / 16) + 0.05 * ((i * 7 + k * 3) % 5);
      p[i].vel[k] = p[i].acc[k] = 0.0;
    }
  compute(NP, &pot, &kin, mass);
  e0 = pot + kin;
  for (int step = 1; step <= STEPS; step++) {
    int n = NP;
#pragma omp parallel
    {
#pragma omp for
      for (int i = 0; i < n; i++)
        for (int k = 0; k < ND; k++)
          p[i].pos[k] += p[i].vel[k] * dt + 0.5 * dt * dt * p[i].acc[k];
#pragma omp single
      compute(n, &pot, &kin, mass);  /* a nested parallel loop: runs on the single thread's team */
#pragma omp for reduction(max : fmax) reduction(min : fmin)
      for (int i = 0; i < n; i++)
        for (int k = 0; k < ND; k++) {
          double a = p[i].f[k] / mass;
          p[i].vel[k] += 0.5 * dt * (a + p[i].acc[k]);
          p[i].acc[k] = a;
          fmax = fmax > fabs(a) ? fmax : fabs(a);
          fmin = fmin < fabs(a) ? fmin : fabs(a);
        }
    }
    printf("step %d pot %.8e kin %.8e conserved %d\n", step, pot, kin, fabs((pot + kin - e0) / e0) < 1e-4);
  }
  printf("fmax %.6e fmin %.6e\n", fmax, fmin);
  return 0;
}
