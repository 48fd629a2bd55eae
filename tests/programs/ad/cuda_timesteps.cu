/* Time stepping on the host, two stencil kernel launches per step (u -> v -> u), differentiated with respect to
   the initial field through the host function (--cpuify); against central finite differences. */
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
__global__ void step(const double *u, double *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.1 * sin(u[i]);
  else if (i < n) v[i] = u[i];
}
double run(double *u, double *v, int n, int T) {
  for (int t = 0; t < T; t++) {
    step<<<(n + 7) / 8, 8>>>(u, v, n);
    step<<<(n + 7) / 8, 8>>>(v, u, n);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i] * (1 + 0.1 * i);
  return s;
}
int main() {
  int n = 19, T = 3; double *u, *du, *v, *dv, u0[19], h = 1e-6;
  cudaMallocManaged(&u, 8 * n); cudaMallocManaged(&du, 8 * n); cudaMallocManaged(&v, 8 * n); cudaMallocManaged(&dv, 8 * n);
  for (int i = 0; i < n; i++) { u0[i] = u[i] = sin(0.3 * i); du[i] = dv[i] = 0; v[i] = 0; }
  __enzyme_autodiff((void *)run, u, du, v, dv, n, T);
  for (int k = 0; k < n; k += 4) {
    for (int i = 0; i < n; i++) u[i] = u0[i]; u[k] += h; double fp = run(u, v, n, T);
    for (int i = 0; i < n; i++) u[i] = u0[i]; u[k] -= h; double fm = run(u, v, n, T);
    printf("ts[%d] %.10g %.10g\n", k, du[k], (fp - fm) / (2 * h));
  }
}
