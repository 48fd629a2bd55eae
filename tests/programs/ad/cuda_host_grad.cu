/* Reverse mode through kernel launches (--cpuify turns them into parallel loops before AD): a stencil kernel
   whose reverse accumulates into neighbouring shadow elements (atomics), an active scalar kernel argument
   (adjoints summed over all threads), and a kernel with a per-thread loop whose values are cached. Checked
   against central finite differences of the host function, and forward mode against reverse mode. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__global__ void smooth(const double *x, double *y, double w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = w * x[i] + (1 - w) * 0.5 * (x[i - 1] + x[i + 1]) + sin(x[i] * w);
  if (i == 0 || i == n - 1) y[i] = x[i];
}
__global__ void iterate(double *z, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = z[i];
    for (int k = 0; k < m; k++) s = s * 0.9 + cos(s) * 0.3;
    z[i] = s;
  }
}

double loss(const double *x, double *y, double *z, double w, int n) {
  smooth<<<(n + 7) / 8, 8>>>(x, y, w, n);
  for (int i = 0; i < n; i++) z[i] = y[i] * y[i];
  iterate<<<(n + 15) / 16, 16>>>(z, n, 6);
  double l = 0;
  for (int i = 0; i < n; i++) l += z[i] * (1.0 + 0.1 * i);
  return l;
}

#define N 29

int main() {
  double *x, *dx, *y, *dy, *z, *dz;
  cudaMallocManaged(&x, 8 * N); cudaMallocManaged(&dx, 8 * N); cudaMallocManaged(&y, 8 * N);
  cudaMallocManaged(&dy, 8 * N); cudaMallocManaged(&z, 8 * N); cudaMallocManaged(&dz, 8 * N);
  for (int i = 0; i < N; i++) { x[i] = 0.3 + 0.05 * i; dx[i] = dy[i] = dz[i] = 0; }
  double w = 0.6, h = 1e-6;
  double dw = __enzyme_autodiff((void *)loss, x, dx, y, dy, z, dz, w, N);
  for (int i = 0; i < N; i += 4) {
    double s = x[i];
    x[i] = s + h; double fp = loss(x, y, z, w, N);
    x[i] = s - h; double fm = loss(x, y, z, w, N);
    x[i] = s;
    printf("x[%d] %.10g %.10g\n", i, dx[i], (fp - fm) / (2 * h));
  }
  printf("w %.10g %.10g\n", dw, (loss(x, y, z, w + h, N) - loss(x, y, z, w - h, N)) / (2 * h));
  /* forward mode through the same launches: the tangent along (vx, vw) equals <gradient, (vx, vw)> */
  double *vx, *vy, *vz, dot = 0.7 * dw;
  cudaMallocManaged(&vx, 8 * N); cudaMallocManaged(&vy, 8 * N); cudaMallocManaged(&vz, 8 * N);
  for (int i = 0; i < N; i++) { vx[i] = cos(1.0 + i); vy[i] = vz[i] = 0; dot += dx[i] * vx[i]; }
  printf("fwd %.10g %.10g\n", __enzyme_fwddiff((void *)loss, x, vx, y, vy, z, vz, w, 0.7, N), dot);
  return 0;
}
