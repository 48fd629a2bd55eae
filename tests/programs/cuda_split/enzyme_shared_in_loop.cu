// Enzyme's GPU form with __shared__ memory inside a __device__ helper that inlining puts inside a loop (over a
// kernel parameter) and a block-uniform branch: a __shared__ variable is one per block wherever it is declared,
// so is its shadow. Checked against central finite differences of the primal kernel.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ double mirror(const double *x, double c) {
  __shared__ double s[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = sin(x[i] + c);
  __syncthreads();
  double r = s[31 - threadIdx.x] * s[threadIdx.x];
  __syncthreads();
  return r;
}
__device__ void f(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double acc = 0;
  for (int k = 0; k < n; k++) acc += mirror(x, 0.1 * k) * (k + 1);
  if (blockIdx.x % 2 == 0) { double v = mirror(x, 1.0); acc += v * v; }
  y[i] = acc;
}
__global__ void run(const double *x, double *y, int n) { f(x, y, n); }
__global__ void grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
int main() {
  const int nb = 2, bs = 32, n = nb * bs, reps = 3;
  std::vector<double> hx(n), hdx(n), hdy(n), yp(n), ym(n);
  for (int i = 0; i < n; i++) { hx[i] = 0.05 * i; hdy[i] = 1.0 + 0.1 * (i % 3); }
  double *x, *dx, *y, *dy;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&y, n * 8); cudaMalloc(&dy, n * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, bs>>>(x, dx, y, dy, reps);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0, h = 1e-6;
  for (int j = 0; j < n; j += 3) {
    std::vector<double> xp(hx); xp[j] += h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs>>>(x, y, reps);
    cudaMemcpy(yp.data(), y, n * 8, cudaMemcpyDeviceToHost);
    xp[j] -= 2 * h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs>>>(x, y, reps);
    cudaMemcpy(ym.data(), y, n * 8, cudaMemcpyDeviceToHost);
    double fd = 0; for (int i = 0; i < n; i++) fd += hdy[i] * (yp[i] - ym[i]) / (2 * h);
    worst = std::fmax(worst, std::fabs(fd - hdx[j]));
  }
  printf("dx[0] = %.8f, max error against finite differences %.3g\n", hdx[0], worst);
  bool ok = worst < 1e-7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
