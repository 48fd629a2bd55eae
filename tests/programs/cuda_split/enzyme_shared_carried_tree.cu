// Enzyme's GPU form with a register value carried through a tree loop whose trip count depends on blockDim (a
// while loop around two __syncthreads()): each level publishes v in __shared__ memory and multiplies in a
// partner's. The reverse sweep runs the levels backwards with a count it keeps uniform for --cpuify. Checked
// against central finite differences of the primal kernel.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ void f(const double *x, double *out) {
  __shared__ double s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  double v = sin(x[i]);
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    s[t] = v;
    __syncthreads();
    if (t < w) v = v * (1.0 + 0.1 * s[t + w]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = v;
}
__global__ void run(const double *x, double *out) { f(x, out); }
__global__ void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
int main() {
  const int nb = 2, bs = 64, n = nb * bs;
  std::vector<double> hx(n), hdx(n), hd(nb), op(nb), om(nb);
  for (int i = 0; i < n; i++) hx[i] = 0.03 * i - 0.7;
  for (int b = 0; b < nb; b++) hd[b] = 1.0 + b;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nb * 8); cudaMalloc(&dout, nb * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hd.data(), nb * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, bs>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0, h = 1e-6;
  for (int j = 0; j < n; j += 5) {
    std::vector<double> xp(hx); xp[j] += h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs>>>(x, out);
    cudaMemcpy(op.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    xp[j] -= 2 * h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs>>>(x, out);
    cudaMemcpy(om.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    double fd = 0; for (int b = 0; b < nb; b++) fd += hd[b] * (op[b] - om[b]) / (2 * h);
    worst = std::fmax(worst, std::fabs(fd - hdx[j]));
  }
  bool ok = worst < 1e-7;
  printf("dx[0] = %.8f, max error against finite differences %.3g\n%s\n", hdx[0], worst, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
