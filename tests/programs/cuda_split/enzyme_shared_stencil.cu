// Enzyme's GPU form with a tiled stencil: each block loads its tile of x (and a halo element on each side) into
// __shared__ memory, synchronizes, and each thread reads its neighbours from the tile:
//   y[i] = x[i-1] * x[i] + sin(x[i+1])   (x outside [0, n) reads as 0)
// so d x[j] = dy[j+1] * x[j+1] + dy[j] * x[j-1] + dy[j-1] * cos(x[j]): adjoints of one tile element come from
// three threads, and the halo's from the neighbouring block.
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

constexpr int BS = 64;

__device__ void stencil(const double *x, double *y, int n) {
  __shared__ double tile[BS + 2];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t + 1] = i < n ? x[i] : 0.0;
  if (t == 0) tile[0] = i > 0 ? x[i - 1] : 0.0;
  if (t == BS - 1) tile[BS + 1] = i + 1 < n ? x[i + 1] : 0.0;
  __syncthreads();
  if (i < n) y[i] = tile[t] * tile[t + 1] + sin(tile[t + 2]);
}

__global__ void grad_stencil(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

int main() {
  const int n = 5 * BS - 17;  // the last block is partly outside the array
  const int nb = (n + BS - 1) / BS;
  const size_t bytes = n * sizeof(double);
  std::vector<double> hx(n), hdx(n), hdy(n);
  for (int i = 0; i < n; i++) { hx[i] = std::sin(0.1 * i) + 0.5; hdy[i] = 1.0 + 0.01 * (i % 13); }
  double *x, *dx, *y, *dy;
  cudaMalloc(&x, bytes); cudaMalloc(&dx, bytes); cudaMalloc(&y, bytes); cudaMalloc(&dy, bytes);
  cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, bytes);
  grad_stencil<<<nb, BS>>>(x, dx, y, dy, n);
  cudaMemcpy(hdx.data(), dx, bytes, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int j = 0; j < n; j++) {
    double want = std::cos(hx[j]) * (j > 0 ? hdy[j - 1] : 0.0);
    if (j + 1 < n) want += hdy[j + 1] * hx[j + 1];
    if (j > 0) want += hdy[j] * hx[j - 1];
    worst = std::fmax(worst, std::fabs(hdx[j] - want));
  }
  printf("dx[%d] = %.8f (a halo element), max error %.3g\n", BS, hdx[BS], worst);
  bool ok = worst < 1e-12;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
