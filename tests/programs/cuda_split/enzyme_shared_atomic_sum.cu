// Enzyme's GPU form with a __shared__ scalar summed by atomicAdd: thread 0 zeroes it, a barrier, every thread adds
// its cube, a barrier, thread 0 writes the square of the total. d out[b] / d x[i] = 2 total_b * 3 x[i]^2: the
// adjoint of the total reaches every thread through the shared shadow between the mirrored barriers.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ void f(const double *x, double *out) {
  __shared__ double total;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t == 0) total = 0;
  __syncthreads();
  atomicAdd(&total, x[i] * x[i] * x[i]);
  __syncthreads();
  if (t == 0) out[blockIdx.x] = total * total;
}
__global__ void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
int main() {
  const int nb = 3, bs = 64, n = nb * bs;
  std::vector<double> hx(n), hdx(n), hd(nb, 1.0);
  for (int i = 0; i < n; i++) hx[i] = 0.01 * i - 0.5;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nb * 8); cudaMalloc(&dout, nb * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hd.data(), nb * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, bs>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int b = 0; b < nb; b++) {
    double tot = 0;
    for (int k = 0; k < bs; k++) tot += hx[b * bs + k] * hx[b * bs + k] * hx[b * bs + k];
    for (int k = 0; k < bs; k++) { int i = b * bs + k; worst = std::fmax(worst, std::fabs(hdx[i] - 2 * tot * 3 * hx[i] * hx[i])); }
  }
  bool ok = worst < 1e-11;
  printf("dx[5] = %.10f, max error %.3g\n%s\n", hdx[5], worst, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
