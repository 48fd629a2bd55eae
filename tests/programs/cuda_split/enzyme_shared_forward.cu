// Forward mode (__enzyme_fwddiff) in device code with __shared__ memory and barriers: the tangent memory of the
// shared array is shared too, the barriers stay in place. The tangent of a block's tree product (the upper
// threads multiply in values of lower ones) is checked against central finite differences along dx.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_fwddiff(void *, T...);
constexpr int BS = 32;
__device__ void tree_product(const double *x, double *out) {
  __shared__ double s[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 1.0 + 0.1 * sin(x[i]);
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (t >= BS - w) s[t] = s[t] * s[t - w];
    __syncthreads();
  }
  if (t == BS - 1) out[blockIdx.x] = s[BS - 1];
}
__global__ void run(const double *x, double *out) { tree_product(x, out); }
__global__ void tangent(const double *x, double *dx, double *out, double *dout) {
  __enzyme_fwddiff((void *)tree_product, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
int main() {
  const int nb = 4, n = nb * BS;
  std::vector<double> hx(n), hdx(n), hdout(nb), op(nb), om(nb);
  for (int i = 0; i < n; i++) { hx[i] = 0.37 * ((i * 7) % 23) - 3.0; hdx[i] = std::cos(0.3 * i); }
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, n * 8); cudaMalloc(&dx, n * 8); cudaMalloc(&out, nb * 8); cudaMalloc(&dout, nb * 8);
  cudaMemcpy(dx, hdx.data(), n * 8, cudaMemcpyHostToDevice);
  const double h = 1e-6;
  std::vector<double> xp(n);
  for (int i = 0; i < n; i++) xp[i] = hx[i] + h * hdx[i];
  cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, BS>>>(x, out);
  cudaMemcpy(op.data(), out, nb * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) xp[i] = hx[i] - h * hdx[i];
  cudaMemcpy(x, xp.data(), n * 8, cudaMemcpyHostToDevice); run<<<nb, BS>>>(x, out);
  cudaMemcpy(om.data(), out, nb * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice);
  tangent<<<nb, BS>>>(x, dx, out, dout);
  cudaMemcpy(hdout.data(), dout, nb * 8, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int b = 0; b < nb; b++) worst = std::fmax(worst, std::fabs(hdout[b] - (op[b] - om[b]) / (2 * h)));
  printf("tangent %.8f fd %.8f worst %g\n", hdout[0], (op[0] - om[0]) / (2 * h), worst);
  bool ok = worst < 1e-7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
