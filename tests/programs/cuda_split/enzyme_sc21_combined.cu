// The SC'21 paper's form with everything in one differentiated __device__ function, in float and double: each
// block stages its slice of x in __shared__ memory, waits at __syncthreads, reads a neighbour's element (the
// shadow of the tile is shared by the block), and the active scalar a, read by every thread, takes its adjoint
// from all of them at once (atomic accumulation into one shadow element). Several blocks; checked against the
// hand-derived gradient:  y[i] = a * t[i] * t[(i+1) % B] + sin(t[i]),  t = this block's tile of x.
#include <cstdio>
#include <cmath>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

#define B 64

template <typename R>
__device__ void layer(const R *a, const R *x, R *y, int n) {
  __shared__ R tile[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : R(0);
  __syncthreads();
  R next = tile[(threadIdx.x + 1) % blockDim.x];
  if (i < n) y[i] = a[0] * tile[threadIdx.x] * next + sin(tile[threadIdx.x]);
}

template <typename R>
__global__ void grad_layer(const R *a, R *da, const R *x, R *dx, R *y, R *dy, int n) {
  __enzyme_autodiff((void *)layer<R>, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

template <typename R>
static bool run(const char *label, double tol) {
  const int n = 5 * B - 17, blocks = (n + B - 1) / B;  // (the last block is partly outside the array)
  R hx[5 * B], hdx[5 * B], hdy[5 * B], ha = R(0.75), hda = 0;
  for (int i = 0; i < n; i++) { hx[i] = R(std::cos(0.05 * i)); hdx[i] = 0; hdy[i] = R(1 + (i % 5) * 0.5); }
  R *a, *da, *x, *dx, *y, *dy;
  size_t bytes = n * sizeof(R);
  cudaMalloc(&a, sizeof(R)); cudaMalloc(&da, sizeof(R)); cudaMalloc(&x, bytes); cudaMalloc(&dx, bytes);
  cudaMalloc(&y, bytes); cudaMalloc(&dy, bytes);
  cudaMemcpy(a, &ha, sizeof(R), cudaMemcpyHostToDevice); cudaMemcpy(da, &hda, sizeof(R), cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice); cudaMemcpy(dx, hdx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy, bytes, cudaMemcpyHostToDevice);
  grad_layer<R><<<blocks, B>>>(a, da, x, dx, y, dy, n);
  cudaMemcpy(hdx, dx, bytes, cudaMemcpyDeviceToHost); cudaMemcpy(&hda, da, sizeof(R), cudaMemcpyDeviceToHost);
  double want_da = 0, worst = 0;
  for (int i = 0; i < n; i++) {
    int b0 = i / B * B, k = i - b0;
    auto t = [&](int j) { return b0 + j < n ? (double)hx[b0 + j] : 0.0; };
    int nx = (k + 1) % B, pv = (k + B - 1) % B;
    want_da += hdy[i] * t(k) * t(nx);
    // y[i] depends on t(k) and t(k+1); y[i-1] (same block, modulo B) on t(k) as its neighbour
    double want = hdy[i] * (ha * t(nx) + std::cos(t(k)));
    if (b0 + pv < n) want += hdy[b0 + pv] * ha * t(pv);
    worst = std::fmax(worst, std::fabs(hdx[i] - want) / (1 + std::fabs(want)));
  }
  double err_a = std::fabs(hda - want_da) / (1 + std::fabs(want_da));
  printf("%s: da %.8g (want %.8g), max error of dx %g\n", label, (double)hda, want_da, worst);
  cudaFree(a); cudaFree(da); cudaFree(x); cudaFree(dx); cudaFree(y); cudaFree(dy);
  return worst < tol && err_a < tol;
}

int main() {
  bool ok = run<double>("double", 1e-12);
  ok = run<float>("float", 1e-5) && ok;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
