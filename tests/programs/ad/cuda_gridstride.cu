/* Reverse and forward mode through CUDA grid-stride loops (`for (i = tid; i < n; i += blockDim.x * gridDim.x)`,
   which --cpuify leaves as while loops: ad/while_to_for.py counts them before AD): an axpy, a dot product whose
   per-thread sums meet in an atomicAdd, a 2-D grid-stride over rows and columns, a block-stride loop with a
   __shared__ tree reduction inside (barriers in the loop), and a grid-stride accumulation reduced through
   __shared__ memory after the loop. Launches with fewer threads than elements, so every thread runs several
   trips, and with more (threads that run none). Prints "label derivative reference": reverse mode along a
   direction and forward mode against central finite differences of the host function. */
#include <stdio.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define B 8

__global__ void axpy(double a, const double *x, double *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] += a * x[i];
}

__global__ void dot(const double *x, const double *y, double *res, int n) {
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc += x[i] * sin(y[i]);
  atomicAdd(res, acc);
}

__global__ void grid2d(const double *in, double *out, double s, int rows, int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += blockDim.x * gridDim.x)
      out[r * cols + c] = sin(in[r * cols + c]) * s + in[r * cols + c] * in[(r * cols + c + 1) % (rows * cols)];
}

__global__ void tiles(const double *x, double *sums, double s, int n, int m) {
  __shared__ double sh[B];
  int t = threadIdx.x;
  for (int base = blockIdx.x * B; base < n; base += B * gridDim.x) {
    int i = base + t;
    sh[t] = i < n ? x[i] * x[i] * s : 0.0;
    __syncthreads();
    for (int st = B / 2; st > 0; st /= 2) {
      if (t < st)
        sh[t] += sh[t + st];
      __syncthreads();
    }
    if (t == 0)
      atomicAdd(&sums[(base / B) % m], tanh(sh[0]));
    __syncthreads();
  }
}

__global__ void norm_shared(const double *x, double *res, unsigned n) {
  __shared__ double sh[B];
  double acc = 0.0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc += x[i] * x[i] * cos(x[i]);
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int st = B / 2; st > 0; st /= 2) {
    if (threadIdx.x < st)
      sh[threadIdx.x] += sh[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(res, sh[0]);
}

/* Each host function maps (x, s) to a scalar; y is scratch memory of n doubles. */
double f_axpy(const double *x, double *y, double s, int n) {
  for (int i = 0; i < n; i++) y[i] = cos(0.3 * i);
  axpy<<<2, B>>>(s, x, y, n);
  axpy<<<(n + B - 1) / B + 1, B>>>(s * s, y, y, n); /* (more threads than elements) */
  double r = 0;
  for (int i = 0; i < n; i++) r += y[i] * y[i] * (1.0 + 0.1 * i);
  return r;
}

double f_dot(const double *x, double *y, double s, int n) {
  for (int i = 0; i < n; i++) y[i] = x[(i + 3) % n] * s;
  y[n] = 0.0;
  dot<<<3, B>>>(x, y, y + n, n);
  return y[n] * y[n];
}

double f_grid2d(const double *x, double *y, double s, int n) {
  int rows = 3, cols = n / 3;
  dim3 grid(2, 1), block(4, 2);
  grid2d<<<grid, block>>>(x, y, s, rows, cols);
  double r = 0;
  for (int i = 0; i < rows * cols; i++) r += y[i] * (0.5 + 0.05 * i);
  return r;
}

double f_tiles(const double *x, double *y, double s, int n) {
  for (int i = 0; i < 3; i++) y[i] = 0.0;
  tiles<<<2, B>>>(x, y, s, n, 3);
  return y[0] * 1.5 + y[1] * y[2];
}

double f_norm(const double *x, double *y, double s, int n) {
  y[0] = 0.0;
  norm_shared<<<2, B>>>(x, y, (unsigned)n);
  return y[0] * s;
}

#define N 21

#define CHECK(fn)                                                                     \
  do {                                                                                \
    double x[N], dx[N], v[N], y[N + 1], dy[N + 1], xp[N], xm[N], h = 1e-6, s = 0.7;   \
    for (int i = 0; i < N; i++) {                                                     \
      x[i] = 0.5 * sin(1.3 * i + 0.2) + 0.1; v[i] = cos(0.7 * i + 0.4); dx[i] = 0;    \
    }                                                                                 \
    for (int i = 0; i <= N; i++) dy[i] = 0;                                           \
    double ds = __enzyme_autodiff((void *)fn, enzyme_dup, x, dx, enzyme_dup, y, dy, s, N); \
    double rev = ds * 0.6;                                                            \
    for (int i = 0; i < N; i++) rev += dx[i] * v[i];                                  \
    for (int i = 0; i <= N; i++) dy[i] = 0;                                           \
    double fwd = __enzyme_fwddiff((void *)fn, enzyme_dup, x, v, enzyme_dup, y, dy, s, 0.6, N); \
    for (int i = 0; i < N; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; } \
    double fd = (fn(xp, y, s + 0.6 * h, N) - fn(xm, y, s - 0.6 * h, N)) / (2 * h);    \
    printf(#fn "_rev %.15g %.15g\n", rev, fd);                                        \
    printf(#fn "_fwd %.15g %.15g\n", fwd, fd);                                        \
  } while (0)

int main(void) {
  CHECK(f_axpy);
  CHECK(f_dot);
  CHECK(f_grid2d);
  CHECK(f_tiles);
  CHECK(f_norm);
  return 0;
}
