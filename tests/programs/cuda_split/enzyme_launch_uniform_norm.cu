// Enzyme's GPU form on normalizations whose threads all compute the same reduction of the input (the norm or
// the mean and spread of the whole array): the adjoint of that reduction is linear in its seed and the same in
// every thread, so pgcc sums the threads' seeds and runs it once per launch (ad/gpu_block.py,
// defer_to_the_launch). Checked against central finite differences of a host copy of the primal, over several
// launches with different shapes (the launch-wide sums are reset between launches), with a 2-D grid, a
// reduction with two results at the function's top level, and a windowed sum that differs per thread (adjoint
// kept per thread).
#include <cstdio>
#include <cstdlib>
#include <cmath>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__host__ __device__ double mag(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += x[k] * x[k];
  return sqrt(s);
}
#define FLAT_INDEX \
  ((blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x)
__device__ void normalize(double *__restrict__ out, const double *__restrict__ in, int n) {
  int i = FLAT_INDEX;
  if (i < n) out[i] = in[i] / mag(in, n);
}
__device__ void standardize(double *__restrict__ out, const double *__restrict__ in, int n) {
  double s = 0, q = 0;
  for (int k = 0; k < n; k++) { s += in[k]; q += in[k] * in[k]; }
  int i = FLAT_INDEX;
  if (i < n) out[i] = (in[i] - s / n) * q;
}
__device__ void window(double *__restrict__ out, const double *__restrict__ in, int n) {
  int i = FLAT_INDEX;
  double s = 0;
  for (int k = 0; k < 5; k++) s += in[(i + k) % n] * in[(i + k) % n];
  if (i < n) out[i] = in[i] * s;
}
__global__ void grad_normalize(double *out, double *dout, const double *in, double *din, int n) {
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}
__global__ void grad_standardize(double *out, double *dout, const double *in, double *din, int n) {
  __enzyme_autodiff((void *)standardize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}
__global__ void grad_window(double *out, double *dout, const double *in, double *din, int n) {
  __enzyme_autodiff((void *)window, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}
// (a call under a branch: not every thread reaches it, the adjoint of mag stays per thread)
__global__ void grad_branch(int which, double *out, double *dout, const double *in, double *din, int n) {
  if (which == 0)
    __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}

// the host's value of sum_i w[i] * out[i] for form `which`
static double objective(int which, const double *in, const double *w, int n) {
  double m = mag(in, n), s = 0, q = 0, r = 0;
  for (int k = 0; k < n; k++) { s += in[k]; q += in[k] * in[k]; }
  for (int i = 0; i < n; i++) {
    double o;
    if (which == 0) o = in[i] / m;
    else if (which == 1) o = (in[i] - s / n) * q;
    else {
      double t = 0;
      for (int k = 0; k < 5; k++) t += in[(i + k) % n] * in[(i + k) % n];
      o = in[i] * t;
    }
    r += w[i] * o;
  }
  return r;
}

int main() {
  const int n = 300;
  const size_t bytes = n * sizeof(double);
  double *in = (double *)malloc(bytes), *w = (double *)malloc(bytes), *g = (double *)malloc(bytes);
  for (int i = 0; i < n; i++) { in[i] = 0.5 + (i * 7 % 5) - 0.3 * (i % 2); w[i] = 1.0 + i % 4; }
  double *d_in, *d_din, *d_out, *d_dout;
  cudaMalloc(&d_in, bytes); cudaMalloc(&d_din, bytes); cudaMalloc(&d_out, bytes); cudaMalloc(&d_dout, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  const dim3 shapes[4][2] = {{dim3(5), dim3(64)}, {dim3(3), dim3(128)}, {dim3(2, 3), dim3(16, 4)},
                             {dim3(1), dim3(300)}};
  for (int which = 0; which < 4; which++) {
    for (int s = 0; s < 4; s++) {
      cudaMemset(d_din, 0, bytes);
      for (int twice = 0; twice < 2; twice++) {  // (the gradient accumulates: two launches give twice the gradient)
        cudaMemcpy(d_dout, w, bytes, cudaMemcpyHostToDevice);
        if (which == 0) grad_normalize<<<shapes[s][0], shapes[s][1]>>>(d_out, d_dout, d_in, d_din, n);
        else if (which == 1) grad_standardize<<<shapes[s][0], shapes[s][1]>>>(d_out, d_dout, d_in, d_din, n);
        else if (which == 2) grad_window<<<shapes[s][0], shapes[s][1]>>>(d_out, d_dout, d_in, d_din, n);
        else grad_branch<<<shapes[s][0], shapes[s][1]>>>(0, d_out, d_dout, d_in, d_din, n);
      }
      cudaMemcpy(g, d_din, bytes, cudaMemcpyDeviceToHost);
      for (int k = 0; k < n; k += 13) {
        const double h = 1e-6, keep = in[k];
        in[k] = keep + h;
        double up = objective(which % 3, in, w, n);
        in[k] = keep - h;
        double down = objective(which % 3, in, w, n);
        in[k] = keep;
        double fd = 2 * (up - down) / (2 * h);
        if (!(fabs(g[k] - fd) <= 1e-5 * (1 + fabs(fd)))) {
          printf("form %d shape %d: d in[%d] = %.12g, finite differences %.12g\n", which, s, k, g[k], fd);
          abort();
        }
      }
    }
  }
  printf("PASS\n");
  return 0;
}
