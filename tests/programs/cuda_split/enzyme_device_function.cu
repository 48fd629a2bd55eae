// Enzyme's GPU form (SC'21): __enzyme_autodiff inside a kernel on a __device__ function that reads threadIdx.
#include <cstdio>
#include <vector>
#include <cmath>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__device__ void square_kernel_body(const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * in[i] * std::sin(in[i]);
}

__global__ void grad_square(const double *in, double *d_in, double *out, double *d_out) {
  __enzyme_autodiff((void *)square_kernel_body, enzyme_dup, in, d_in, enzyme_dup, out, d_out);
}

int main() {
  const int n = 256;
  std::vector<double> x(n), dx(n, 0.0), y(n), dy(n, 1.0);
  for (int i = 0; i < n; i++) x[i] = 0.01 * i;
  double *in, *din, *out, *dout;
  cudaMalloc(&in, n * 8); cudaMalloc(&din, n * 8); cudaMalloc(&out, n * 8); cudaMalloc(&dout, n * 8);
  cudaMemcpy(in, x.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(din, dx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, dy.data(), n * 8, cudaMemcpyHostToDevice);
  grad_square<<<n / 64, 64>>>(in, din, out, dout);
  cudaMemcpy(dx.data(), din, n * 8, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    double v = x[i], want = 2 * v * std::sin(v) + v * v * std::cos(v);
    ok = ok && std::fabs(dx[i] - want) < 1e-12;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
