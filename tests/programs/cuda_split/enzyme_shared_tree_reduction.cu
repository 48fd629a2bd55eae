// Enzyme's GPU form with a shared-memory tree reduction (the classic CUDA block reduction): each level halves
// the active threads, a __syncthreads() after each. Two reductions are differentiated: a linear sum of cubes,
// d out[b] / d x[i] = 3 x[i]^2, and a nonlinear tree (s[t] = s[t] * s[t - w]: the product of the block's
// values, whose derivative needs the primal values of every level), checked against central finite differences.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

constexpr int BS = 32;

__device__ void sum_of_cubes(const double *x, double *out) {
  __shared__ double s[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = x[i] * x[i] * x[i];
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__device__ void tree_product(const double *x, double *out) {
  __shared__ double s[BS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 1.0 + 0.1 * sin(x[i]);
  __syncthreads();
  for (int w = BS / 2; w > 0; w >>= 1) {
    if (t >= BS - w) s[t] = s[t] * s[t - w];  // (the upper threads work: adjoints flow to lower threads)
    __syncthreads();
  }
  if (t == BS - 1) out[blockIdx.x] = s[BS - 1];
}

__global__ void grad_cubes(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)sum_of_cubes, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
__global__ void run_product(const double *x, double *out) { tree_product(x, out); }
__global__ void grad_product(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)tree_product, enzyme_dup, x, dx, enzyme_dup, out, dout);
}

int main() {
  const int nb = 6, n = nb * BS;
  const size_t bytes = n * sizeof(double), obytes = nb * sizeof(double);
  std::vector<double> hx(n), hdx(n), hdout(nb), hout(nb);
  for (int i = 0; i < n; i++) hx[i] = 0.37 * ((i * 7) % 23) - 3.0;
  for (int b = 0; b < nb; b++) hdout[b] = 0.5 + b;
  double *x, *dx, *out, *dout;
  cudaMalloc(&x, bytes); cudaMalloc(&dx, bytes); cudaMalloc(&out, obytes); cudaMalloc(&dout, obytes);
  cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice);
  bool ok = true;

  // sum of cubes: d x[i] = 3 x[i]^2 * dout[block]
  cudaMemset(dx, 0, bytes);
  cudaMemcpy(dout, hdout.data(), obytes, cudaMemcpyHostToDevice);
  grad_cubes<<<nb, BS>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, bytes, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n; i++) worst = std::fmax(worst, std::fabs(hdx[i] - 3 * hx[i] * hx[i] * hdout[i / BS]));
  printf("sum of cubes: dx[1] = %.6f (expected %.6f), max error %.3g\n", hdx[1], 3 * hx[1] * hx[1] * hdout[0], worst);
  ok = ok && worst < 1e-10;

  // tree product: central finite differences of the primal kernel
  cudaMemset(dx, 0, bytes);
  cudaMemcpy(dout, hdout.data(), obytes, cudaMemcpyHostToDevice);
  grad_product<<<nb, BS>>>(x, dx, out, dout);
  cudaMemcpy(hdx.data(), dx, bytes, cudaMemcpyDeviceToHost);
  worst = 0;
  const double h = 1e-6;
  for (int i = 0; i < n; i += 5) {
    std::vector<double> xp(hx), op(nb), om(nb);
    xp[i] = hx[i] + h;
    cudaMemcpy(x, xp.data(), bytes, cudaMemcpyHostToDevice);
    run_product<<<nb, BS>>>(x, out);
    cudaMemcpy(op.data(), out, obytes, cudaMemcpyDeviceToHost);
    xp[i] = hx[i] - h;
    cudaMemcpy(x, xp.data(), bytes, cudaMemcpyHostToDevice);
    run_product<<<nb, BS>>>(x, out);
    cudaMemcpy(om.data(), out, obytes, cudaMemcpyDeviceToHost);
    double fd = 0;
    for (int b = 0; b < nb; b++) fd += hdout[b] * (op[b] - om[b]) / (2 * h);
    worst = std::fmax(worst, std::fabs(hdx[i] - fd));
    if (i == 0) printf("tree product: dx[0] = %.8f, finite difference %.8f\n", hdx[0], fd);
  }
  printf("tree product: max error against finite differences %.3g\n", worst);
  ok = ok && worst < 1e-7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
