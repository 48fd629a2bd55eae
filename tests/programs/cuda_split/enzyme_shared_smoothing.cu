// Enzyme's GPU form with shared memory rewritten in a loop: a block smooths its tile `steps` times (a nonlinear
// update, the tile read by neighbours, two barriers per step), so the reverse sweep needs the tile as it was at
// each step (cached per thread and step: the shared array is overwritten later). Checked against central finite
// differences of the primal kernel.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

constexpr int BS = 32;

__device__ void smooth(const double *x, double *y, int steps) {
  __shared__ double a[BS], b[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  a[t] = x[i];
  __syncthreads();
  for (int s = 0; s < steps; s++) {
    double l = t > 0 ? a[t - 1] : a[t];
    double r = t < BS - 1 ? a[t + 1] : a[t];
    b[t] = 0.25 * l + 0.5 * a[t] + 0.25 * r * cos(a[t]);
    __syncthreads();
    a[t] = b[t];
    __syncthreads();
  }
  y[i] = a[t] * a[t];
}

__global__ void run(const double *x, double *y, int steps) { smooth(x, y, steps); }
__global__ void grad(const double *x, double *dx, double *y, double *dy, int steps) {
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, steps);
}

int main() {
  const int nb = 3, n = nb * BS, steps = 4;
  const size_t bytes = n * sizeof(double);
  std::vector<double> hx(n), hdx(n), hdy(n), yp(n), ym(n);
  for (int i = 0; i < n; i++) { hx[i] = 0.5 + 0.3 * std::sin(0.7 * i); hdy[i] = 1.0 + 0.1 * (i % 4); }
  double *x, *dx, *y, *dy;
  cudaMalloc(&x, bytes); cudaMalloc(&dx, bytes); cudaMalloc(&y, bytes); cudaMalloc(&dy, bytes);
  cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, bytes);
  grad<<<nb, BS>>>(x, dx, y, dy, steps);
  cudaMemcpy(hdx.data(), dx, bytes, cudaMemcpyDeviceToHost);
  const double h = 1e-6;
  double worst = 0;
  for (int j = 0; j < n; j += 3) {
    std::vector<double> xp(hx);
    xp[j] = hx[j] + h;
    cudaMemcpy(x, xp.data(), bytes, cudaMemcpyHostToDevice);
    run<<<nb, BS>>>(x, y, steps);
    cudaMemcpy(yp.data(), y, bytes, cudaMemcpyDeviceToHost);
    xp[j] = hx[j] - h;
    cudaMemcpy(x, xp.data(), bytes, cudaMemcpyHostToDevice);
    run<<<nb, BS>>>(x, y, steps);
    cudaMemcpy(ym.data(), y, bytes, cudaMemcpyDeviceToHost);
    double fd = 0;
    for (int i = 0; i < n; i++) fd += hdy[i] * (yp[i] - ym[i]) / (2 * h);
    worst = std::fmax(worst, std::fabs(hdx[j] - fd));
    if (j == 3) printf("dx[3] = %.8f, finite difference %.8f\n", hdx[3], fd);
  }
  printf("max error against finite differences %.3g\n", worst);
  bool ok = worst < 1e-7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
