// Enzyme's GPU form with an extern __shared__ array (sized by the launch's third <<<>>> argument): its shadow (and
// its tangent memory in forward mode) is allocated zeroed by the block's thread 0 and shared through a __shared__
// pointer. A tree over blockDim (the upper threads add squares of lower ones) is differentiated in reverse mode,
// checked against central finite differences, and in forward mode, checked against the reverse result (the
// dot-product test).
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
template <typename... T> __device__ void __enzyme_fwddiff(void *, T...);
__device__ void f(const double *x, double *out) {
  extern __shared__ double s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = x[i] * x[i];
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (t >= blockDim.x - w) s[t] += s[t - w] * s[t - w];
    __syncthreads();
  }
  if (t == blockDim.x - 1) out[blockIdx.x] = s[t];
}
__global__ void run(const double *x, double *out) { f(x, out); }
__global__ void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
__global__ void tangent(const double *x, double *dx, double *out, double *dout) {
  __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
int main() {
  const int nb = 3, bs = 32, n = nb * bs;
  const size_t sh = bs * sizeof(double);
  std::vector<double> hx(n), hdx(n), hd(nb), op(nb), om(nb), ht(nb), dir(n);
  for (int i = 0; i < n; i++) { hx[i] = 0.02 * i - 0.9; dir[i] = std::sin(1.0 * i); }
  for (int b = 0; b < nb; b++) hd[b] = 1.0 + b;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nb * 8); cudaMalloc(&dout, nb * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hd.data(), nb * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, bs, sh>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0, scale = 0, h = 1e-6;
  for (int j = 0; j < n; j += 5) {
    std::vector<double> xp(hx); xp[j] += h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs, sh>>>(x, out);
    cudaMemcpy(op.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    xp[j] -= 2 * h;
    cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, bs, sh>>>(x, out);
    cudaMemcpy(om.data(), out, nb * 8, cudaMemcpyDeviceToHost);
    double fd = 0; for (int b = 0; b < nb; b++) fd += hd[b] * (op[b] - om[b]) / (2 * h);
    worst = std::fmax(worst, std::fabs(fd - hdx[j]));
    scale = std::fmax(scale, std::fabs(fd));
  }
  worst /= scale;  // (relative to the largest derivative)
  // forward mode along dir, against the reverse result: sum_b hd[b] * tangent[b] == sum_i hdx[i] * dir[i]
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, dir.data(), n * 8, cudaMemcpyHostToDevice);
  tangent<<<nb, bs, sh>>>(x, dx, out, dout);
  cudaMemcpy(ht.data(), dout, nb * 8, cudaMemcpyDeviceToHost);
  double lhs = 0, rhs = 0;
  for (int b = 0; b < nb; b++) lhs += hd[b] * ht[b];
  for (int i = 0; i < n; i++) rhs += hdx[i] * dir[i];
  printf("reverse vs finite differences %.3g (relative), forward vs reverse (dot product) %.3g\n", worst, std::fabs(lhs - rhs));
  bool ok = worst < 1e-7 && std::fabs(lhs - rhs) < 1e-10 * std::fabs(rhs);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
