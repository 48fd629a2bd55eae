// Enzyme's GPU form (SC'21) with block-level code: a __device__ function squares its element into __shared__
// memory, synchronizes, and the block's last thread sums the squares (the adjoints it accumulates into the shadow
// of the shared array are read by the other threads after the mirrored barrier). d out[b] / d x[i] = 2 x[i] for i in block b.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

constexpr int BS = 64;

__device__ void block_sum_squares(const double *x, double *out) {
  __shared__ double sq[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sq[t] = x[i] * x[i];
  __syncthreads();
  if (t == BS - 1) {
    double acc = 0;
    for (int k = 0; k < BS; k++) acc += sq[k];
    out[blockIdx.x] = acc;
  }
}

__global__ void sum_squares(const double *x, double *out) { block_sum_squares(x, out); }

__global__ void grad_sum_squares(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)block_sum_squares, enzyme_dup, x, dx, enzyme_dup, out, dout);
}

int main() {
  const int nb = 8, n = nb * BS;
  std::vector<double> hx(n), hdx(n, 0.0), hout(nb), hdout(nb);
  for (int i = 0; i < n; i++) hx[i] = 0.013 * i - 2.5;
  for (int b = 0; b < nb; b++) hdout[b] = 1.0 + 0.5 * b;  // a different seed per block
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * sizeof(double)); cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&out, nb * sizeof(double)); cudaMalloc(&dout, nb * sizeof(double));
  cudaMemcpy(x, hx.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hdx.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hdout.data(), nb * sizeof(double), cudaMemcpyHostToDevice);
  sum_squares<<<nb, BS>>>(x, out);
  cudaMemcpy(hout.data(), out, nb * sizeof(double), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < nb; b++) {
    double want = 0;
    for (int k = 0; k < BS; k++) want += hx[b * BS + k] * hx[b * BS + k];
    ok = ok && std::fabs(hout[b] - want) < 1e-9;
  }
  grad_sum_squares<<<nb, BS>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, n * sizeof(double), cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n; i++) worst = std::fmax(worst, std::fabs(hdx[i] - 2 * hx[i] * hdout[i / BS]));
  ok = ok && worst < 1e-12;
  printf("dx[0] = %.6f (expected %.6f), max error %.3g\n", hdx[0], 2 * hx[0] * hdout[0], worst);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
