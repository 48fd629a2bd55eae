/* atomicAdd reductions in a kernel, differentiated through the host function that launches it (--cpuify):
   hand-derived d/dx_i (sum_j sin(x_j) x_j)^2 = 2 s (cos(x_i) x_i + sin(x_i)); forward mode against reverse. */
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
__global__ void sumsq(const double *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, sin(x[i]) * x[i]);
}
double total(const double *x, double *out, int n) {
  out[0] = 0;
  sumsq<<<(n + 7) / 8, 8>>>(x, out, n);
  return out[0] * out[0];
}
int main() {
  int n = 20; double *x, *dx, *o, *d_o;
  cudaMallocManaged(&x, 8 * n); cudaMallocManaged(&dx, 8 * n); cudaMallocManaged(&o, 8); cudaMallocManaged(&d_o, 8);
  for (int i = 0; i < n; i++) { x[i] = 0.1 * i; dx[i] = 0; } d_o[0] = 0;
  __enzyme_autodiff((void *)total, x, dx, o, d_o, n);
  double s = 0; for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  for (int i = 0; i < n; i += 5) printf("atomic[%d] %.10g %.10g\n", i, dx[i], 2 * s * (cos(x[i]) * x[i] + sin(x[i])));
  double *v; cudaMallocManaged(&v, 8 * n); for (int i = 0; i < n; i++) v[i] = (i == 3);
  d_o[0] = 0;
  printf("atomic_fwd %.10g %.10g\n", __enzyme_fwddiff((void *)total, x, v, o, d_o, n), dx[3]);
}
