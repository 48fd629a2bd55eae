// Enzyme's GPU form through warp shuffles: a __device__ function sums squares across each warp with
// __shfl_down_sync (an exchange through a per-block buffer between warp-level barriers), whose adjoint is the
// shuffle back (accumulated into the buffer's shared shadow). d out[w] / d x[i] = 2 x[i] for i in warp w.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__device__ void warp_sum_sq(const double *x, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = x[i] * x[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

__global__ void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)warp_sum_sq, enzyme_dup, x, dx, enzyme_dup, out, dout);
}

int main() {
  const int nb = 4, bs = 128, n = nb * bs, nw = n / 32;
  std::vector<double> hx(n), hdx(n), hdout(nw);
  for (int i = 0; i < n; i++) hx[i] = 0.01 * i - 1.3;
  for (int w = 0; w < nw; w++) hdout[w] = 1.0 + w;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nw * 8); cudaMalloc(&dout, nw * 8);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hdout.data(), nw * 8, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, n * 8);
  grad<<<nb, bs>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * 8, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n; i++) worst = std::fmax(worst, std::fabs(hdx[i] - 2 * hx[i] * hdout[i / 32]));
  printf("dx[33] = %f expected %f, worst %g\n", hdx[33], 2 * hx[33] * hdout[1], worst);
  bool ok = worst < 1e-12;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
