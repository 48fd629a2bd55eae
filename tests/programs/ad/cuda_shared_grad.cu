/* Reverse and forward mode through kernels that synchronize (--cpuify eliminates the barriers before AD, so
   the reverse sweep runs the barrier-separated phases in mirror order): a block reduction of x^2 * w through a
   tree in __shared__ memory, and a 1-D stencil that stages a tile with halo in __shared__ memory and reads it
   after __syncthreads() several times in a loop. Checked against central finite differences of the host
   function, and forward mode against reverse mode (dot-product test). */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define T 16

__global__ void block_sums(const double *x, double *sums, double w, int n) {
  __shared__ double part[T];
  int t = threadIdx.x, i = blockIdx.x * T + t;
  part[t] = i < n ? x[i] * x[i] * w : 0.0;
  __syncthreads();
  for (int s = T / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    sums[blockIdx.x] = part[0];
}

__global__ void smooth_steps(const double *in, double *out, int n, int steps) {
  __shared__ double tile[T + 2];
  int t = threadIdx.x, i = blockIdx.x * T + t;
  double v = i < n ? in[i] : 0.0;
  for (int k = 0; k < steps; k++) {
    tile[t + 1] = v;
    if (t == 0)
      tile[0] = i > 0 ? in[i - 1] : 0.0;
    if (t == T - 1)
      tile[T + 1] = i + 1 < n ? in[i + 1] : 0.0;
    __syncthreads();
    v = 0.5 * tile[t + 1] + 0.25 * (tile[t] + tile[t + 2]) + 0.1 * sin(tile[t + 1]);
    __syncthreads();
  }
  if (i < n)
    out[i] = v;
}

double loss(const double *x, double *y, double *sums, double w, int n) {
  int blocks = (n + T - 1) / T;
  smooth_steps<<<blocks, T>>>(x, y, n, 3);
  block_sums<<<blocks, T>>>(y, sums, w, n);
  double l = 0;
  for (int b = 0; b < blocks; b++)
    l += sums[b] * (1.0 + 0.5 * b);
  return l;
}

#define N 45

int main() {
  double *x, *dx, *y, *dy, *s, *ds, *tx;
  cudaMallocManaged(&x, 8 * N); cudaMallocManaged(&dx, 8 * N); cudaMallocManaged(&y, 8 * N);
  cudaMallocManaged(&dy, 8 * N); cudaMallocManaged(&s, 8 * N); cudaMallocManaged(&ds, 8 * N);
  cudaMallocManaged(&tx, 8 * N);
  for (int i = 0; i < N; i++) { x[i] = 0.2 + 0.03 * i; dx[i] = dy[i] = ds[i] = 0; tx[i] = (i % 3) - 1.0; }
  double w = 0.8, h = 1e-6;
  double dw = __enzyme_autodiff((void *)loss, x, dx, y, dy, s, ds, w, N);
  for (int i = 0; i < N; i += 4) {
    double v = x[i];
    x[i] = v + h; double fp = loss(x, y, s, w, N);
    x[i] = v - h; double fm = loss(x, y, s, w, N);
    x[i] = v;
    printf("x[%d] %.10g %.10g\n", i, dx[i], (fp - fm) / (2 * h));
  }
  printf("w %.10g %.10g\n", dw, (loss(x, y, s, w + h, N) - loss(x, y, s, w - h, N)) / (2 * h));
  for (int i = 0; i < N; i++) dy[i] = ds[i] = 0;
  double fwd = __enzyme_fwddiff((void *)loss, x, tx, y, dy, s, ds, enzyme_const, w, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * tx[i];
  printf("dot %.10g %.10g\n", fwd, dot);
  return 0;
}
