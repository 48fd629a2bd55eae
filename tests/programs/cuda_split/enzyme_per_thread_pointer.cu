// The pointers given to __enzyme_autodiff may differ between threads: here every thread passes x shifted back
// by its global index, so that the __device__ function's x[gid] is x[0] for every thread and all threads add
// into the same shadow element (atomically: the index is injective in the thread ids, the pointer is not the
// same in every thread). d x[0] = sum_i 2 x[0] dy[i].
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__device__ void square_at(const double *x, double *y) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  y[gid] = x[gid] * x[gid];
}

__global__ void grad(const double *x, double *dx, double *y, double *dy) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_autodiff((void *)square_at, enzyme_dup, x - gid, dx - gid, enzyme_dup, y, dy);
}

int main() {
  const int blocks = 64, threads = 256, n = blocks * threads;
  std::vector<double> hdy(n);
  double hx = 0.75, want = 0;
  for (int i = 0; i < n; i++) { hdy[i] = 1.0 + (i % 5); want += 2 * hx * hdy[i]; }
  double *x, *dx, *y, *dy;
  cudaMalloc(&x, sizeof(double)); cudaMalloc(&dx, sizeof(double));
  cudaMalloc(&y, n * sizeof(double)); cudaMalloc(&dy, n * sizeof(double));
  cudaMemcpy(x, &hx, sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, sizeof(double));
  for (int rep = 0; rep < 10; rep++) grad<<<blocks, threads>>>(x, dx, y, dy);  // dy is consumed by the first
  double got;
  cudaMemcpy(&got, dx, sizeof(double), cudaMemcpyDeviceToHost);
  printf("d x[0] = %.6f (expected %.6f)\n", got, want);
  bool ok = std::fabs(got - want) < 1e-9 * want;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
