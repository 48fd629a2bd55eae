// Enzyme's GPU form with a thread's local array whose values the reverse sweep needs after barriers (it is kept
// per thread across them), then a block reduction of squares through __shared__ memory by the last thread.
// Checked against central finite differences of the primal kernel.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
constexpr int BS = 32;
__device__ void f(const double *x, double *out) {
  __shared__ double s[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  double v[3];
  for (int k = 0; k < 3; k++) v[k] = x[i] * (k + 1);
  double p = 1;
  for (int k = 0; k < 3; k++) p *= sin(v[k]);
  s[t] = p;
  __syncthreads();
  if (t == BS - 1) { double acc = 0; for (int k = 0; k < BS; k++) acc += s[k] * s[k]; out[blockIdx.x] = acc; }
}
__global__ void run(const double *x, double *out) { f(x, out); }
__global__ void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
int main() {
  const int nb = 2, n = nb * BS;
  std::vector<double> hx(n), hdx(n), hd(nb, 1.0), op(nb), om(nb);
  for (int i = 0; i < n; i++) hx[i] = 0.05 * i + 0.1;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nb * 8); cudaMalloc(&dout, nb * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hd.data(), nb * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, BS>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0, h = 1e-6;
  for (int j = 0; j < n; j += 7) {
    std::vector<double> xp(hx); xp[j] += h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, BS>>>(x, out);
    cudaMemcpy(op.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    xp[j] -= 2 * h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, BS>>>(x, out);
    cudaMemcpy(om.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    double fd = (op[0] - om[0] + op[1] - om[1]) / (2 * h);
    worst = std::fmax(worst, std::fabs(fd - hdx[j]));
  }
  bool ok = worst < 1e-7;
  printf("max error against finite differences %.3g\n%s\n", worst, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
