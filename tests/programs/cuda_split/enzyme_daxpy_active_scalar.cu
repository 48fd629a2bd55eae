// Enzyme's GPU form on daxpy, y[i] += a * x[i], with the scalar a active: every thread adds its part of
// d a = sum_i x[i] * dy[i] into the same shadow element, so the adjoint accumulation must be atomic, while
// dx[i] += a * dy[i] touches the thread's own element. Four forms: a read through a pointer (its shadow is the
// gradient), a grid-stride loop over the array, a passed by value (each thread's part returned by
// __enzyme_autodiff and summed with atomicAdd by the kernel, as in the SC'21 paper), and an index computed with
// a constant block size.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
template <typename... T> __device__ double __enzyme_autodiff_value(void *, T...);

__device__ void daxpy(int n, const double *a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a[0] * x[i];
}

__device__ void daxpy_grid_stride(int n, const double *a, const double *x, double *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += a[0] * x[i];
}

__device__ void daxpy_fixed_block(int n, const double *a, const double *x, double *y) {
  int i = blockIdx.x * 128 + threadIdx.x;  // (plain adjoints of x[i], y[i] when blockDim.x <= 128)
  if (i < n) y[i] += a[0] * x[i];
}

__device__ void daxpy_value(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

__global__ void grad_daxpy(int n, const double *a, double *da, const double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)daxpy, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
__global__ void grad_daxpy_grid_stride(int n, const double *a, double *da, const double *x, double *dx, double *y,
                                       double *dy) {
  __enzyme_autodiff((void *)daxpy_grid_stride, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, x, dx,
                    enzyme_dup, y, dy);
}
__global__ void grad_daxpy_fixed_block(int n, const double *a, double *da, const double *x, double *dx, double *y,
                                       double *dy) {
  __enzyme_autodiff((void *)daxpy_fixed_block, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, x, dx,
                    enzyme_dup, y, dy);
}
__global__ void grad_daxpy_value(int n, double a, double *da, const double *x, double *dx, double *y, double *dy) {
  double d = __enzyme_autodiff_value((void *)daxpy_value, enzyme_const, n, a, enzyme_dup, x, dx, enzyme_dup, y, dy);
  atomicAdd(da, d);
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  const size_t bytes = n * sizeof(double);
  const double ha = 1.75;
  std::vector<double> hx(n), hy(n), hdy(n), hdx(n), hdy_out(n);
  double want_da = 0;
  for (int i = 0; i < n; i++) {
    hx[i] = std::cos(0.01 * i);
    hy[i] = 0.5 * i;
    hdy[i] = 1.0 + (i % 7) * 0.25;
    want_da += hx[i] * hdy[i];
  }
  double *a, *da, *x, *dx, *y, *dy;
  cudaMalloc(&a, sizeof(double)); cudaMalloc(&da, sizeof(double));
  cudaMalloc(&x, bytes); cudaMalloc(&dx, bytes); cudaMalloc(&y, bytes); cudaMalloc(&dy, bytes);
  cudaMemcpy(a, &ha, sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice);
  bool ok = true;
  for (int form = 0; form < 4; form++) {
    cudaMemcpy(y, hy.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hdy.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemset(dx, 0, bytes);
    cudaMemset(da, 0, sizeof(double));
    if (form == 0) grad_daxpy<<<blocks, threads>>>(n, a, da, x, dx, y, dy);
    else if (form == 1) grad_daxpy_grid_stride<<<3, 64>>>(n, a, da, x, dx, y, dy);  // 192 threads, 1000 elements
    else if (form == 2) grad_daxpy_value<<<blocks, threads>>>(n, ha, da, x, dx, y, dy);
    else grad_daxpy_fixed_block<<<blocks, threads>>>(n, a, da, x, dx, y, dy);
    double got_da;
    cudaMemcpy(&got_da, da, sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(hdx.data(), dx, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(hdy_out.data(), dy, bytes, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int i = 0; i < n; i++) {
      worst = std::fmax(worst, std::fabs(hdx[i] - ha * hdy[i]));
      worst = std::fmax(worst, std::fabs(hdy_out[i] - hdy[i]));  // y's adjoint passes through y += ...
    }
    bool good = std::fabs(got_da - want_da) < 1e-9 * std::fabs(want_da) && worst < 1e-12;
    printf("form %d: d a = %.10f (expected %.10f), max error of dx, dy %.3g\n", form, got_da, want_da, worst);
    ok = ok && good;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
