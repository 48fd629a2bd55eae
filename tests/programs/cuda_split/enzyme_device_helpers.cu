// Enzyme's GPU form where the differentiated __device__ function reaches threadIdx/blockIdx/blockDim only
// through other __device__ helpers (an index helper two calls deep, a per-lane weight): the helpers are
// inlined into the derivative, and nothing of them may be left outside the launch. Two kernels, each in float
// and double: colliding atomicAdd into four bins (the shadow of the bins is read by every thread), and a
// shared-memory tile read at a negative offset after a barrier. main aborts when a gradient is off.
#include <cmath>
#include <cstdio>
#include <cstdlib>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__device__ int lane() { return threadIdx.x; }
__device__ int global_index() { return blockIdx.x * blockDim.x + lane(); }
template <typename R> __device__ R lane_weight() { return R(1) + R(0.25) * (lane() % 3); }

template <typename R> __device__ void binned_squares(int n, const R *x, R *bins) {
  int i = global_index();
  if (i < n) atomicAdd(&bins[i % 4], lane_weight<R>() * x[i] * x[i]);
}

template <typename R> __device__ void left_products(int n, const R *x, R *y) {
  __shared__ R tile[65];
  int t = lane(), i = global_index();
  tile[t + 1] = i < n ? x[i] : R(0);
  if (t == 0) tile[0] = i > 0 ? x[i - 1] : R(0);
  __syncthreads();
  const R *c = &tile[t + 1];
  if (i < n) y[i] = c[0] * c[-1] + sin(c[0]);
}

template <typename R> __global__ void grad_binned(int n, const R *x, R *dx, R *b, R *db) {
  __enzyme_autodiff((void *)binned_squares<R>, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, b, db);
}
template <typename R> __global__ void grad_left(int n, const R *x, R *dx, R *y, R *dy) {
  __enzyme_autodiff((void *)left_products<R>, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy);
}

template <typename R> static void check(const char *what, int i, R got, double want, double tol) {
  if (std::fabs(got - want) > tol * (1 + std::fabs(want))) {
    std::fprintf(stderr, "%s[%d] = %g, expected %g\n", what, i, (double)got, want);
    std::abort();
  }
}

template <typename R> static void run(double tol) {
  const int n = 200, T = 64, B = (n + T - 1) / T;
  R hx[n], hdx[n], hdy[n], hdb[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; i++) { hx[i] = std::cos(0.05 * i); hdy[i] = 1 + (i % 5) * R(0.5); }
  R *x, *dx, *b, *db, *y, *dy;
  cudaMalloc(&x, sizeof hx); cudaMalloc(&dx, sizeof hx); cudaMalloc(&y, sizeof hx); cudaMalloc(&dy, sizeof hx);
  cudaMalloc(&b, sizeof hdb); cudaMalloc(&db, sizeof hdb);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemset(dx, 0, sizeof hx);
  cudaMemset(b, 0, sizeof hdb);
  cudaMemcpy(db, hdb, sizeof hdb, cudaMemcpyHostToDevice);
  grad_binned<R><<<B, T>>>(n, x, dx, b, db);
  cudaMemcpy(hdx, dx, sizeof hx, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)  // bins[i % 4] += w(lane) x[i]^2
    check("binned dx", i, hdx[i], hdb[i % 4] * (1 + 0.25 * ((i % T) % 3)) * 2 * hx[i], tol);
  cudaMemset(dx, 0, sizeof hx);
  cudaMemcpy(dy, hdy, sizeof hx, cudaMemcpyHostToDevice);
  grad_left<R><<<B, T>>>(n, x, dx, y, dy);
  cudaMemcpy(hdx, dx, sizeof hx, cudaMemcpyDeviceToHost);
  for (int j = 0; j < n; j++) {  // y[i] = x[i] x[i-1] + sin x[i]
    double want = hdy[j] * ((j > 0 ? hx[j - 1] : 0) + std::cos((double)hx[j])) + (j + 1 < n ? hdy[j + 1] * hx[j + 1] : 0);
    check("left_products dx", j, hdx[j], want, tol);
  }
  cudaFree(x); cudaFree(dx); cudaFree(y); cudaFree(dy); cudaFree(b); cudaFree(db);
}

int main() {
  run<float>(1e-4);
  run<double>(1e-10);
  std::printf("PASS\n");
  return 0;
}
