/* __enzyme_autodiff inside __global__ kernels on __device__ functions (one gradient per thread), run on the
   CPU with --cpuify; checked against central finite differences of the same functions on the host. */
#include <stdio.h>
#include <math.h>

extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_autodiff_v(void *, ...);
extern __device__ int enzyme_dup, enzyme_const;

__host__ __device__ double energy(double x, double w) { return sin(x * w) * x + x * x * w; }
__host__ __device__ void relax(double *v, double w, int m) {
  for (int k = 1; k < m; k++) v[k] = v[k] * w + cos(v[k - 1]);
}

__global__ void grad_energy(const double *x, double *g, double w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] = __enzyme_autodiff((void *)energy, x[i], enzyme_const, w);
}
__global__ void grad_relax(double *v, double *dv, double w, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff_v((void *)relax, v + i * m, dv + i * m, enzyme_const, w, m);
}

#define N 37
#define M 4

int main() {
  double hx[N], hg[N], hv[N * M], hdv[N * M], v0[N * M];
  for (int i = 0; i < N; i++) hx[i] = 0.1 * i - 1.0;
  for (int i = 0; i < N * M; i++) { hv[i] = v0[i] = 0.05 * i; hdv[i] = 1.0 + (i % M); }
  double *dx, *dg, *dv, *ddv;
  cudaMalloc(&dx, N * sizeof(double)); cudaMalloc(&dg, N * sizeof(double));
  cudaMalloc(&dv, N * M * sizeof(double)); cudaMalloc(&ddv, N * M * sizeof(double));
  cudaMemcpy(dx, hx, N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, hv, N * M * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(ddv, hdv, N * M * sizeof(double), cudaMemcpyHostToDevice);
  grad_energy<<<(N + 15) / 16, 16>>>(dx, dg, 0.7, N);
  grad_relax<<<(N + 7) / 8, 8>>>(dv, ddv, 0.7, N, M);
  cudaMemcpy(hg, dg, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(hdv, ddv, N * M * sizeof(double), cudaMemcpyDeviceToHost);
  double h = 1e-6;
  for (int i = 0; i < N; i += 3)
    printf("energy[%d] %.10g %.10g\n", i, hg[i], (energy(hx[i] + h, 0.7) - energy(hx[i] - h, 0.7)) / (2 * h));
  for (int i = 0; i < N; i += 5) {
    for (int k = 0; k < M; k++) {
      /* gradient of sum_j (1 + j) * relax(v)[j] with respect to v[k], for thread i's slice */
      double y[M], fp = 0, fm = 0;
      for (int j = 0; j < M; j++) y[j] = v0[i * M + j];
      y[k] += h; relax(y, 0.7, M); for (int j = 0; j < M; j++) fp += (1.0 + j) * y[j];
      for (int j = 0; j < M; j++) y[j] = v0[i * M + j];
      y[k] -= h; relax(y, 0.7, M); for (int j = 0; j < M; j++) fm += (1.0 + j) * y[j];
      printf("relax[%d][%d] %.10g %.10g\n", i, k, hdv[i * M + k], (fp - fm) / (2 * h));
    }
  }
  cudaFree(dx); cudaFree(dg); cudaFree(dv); cudaFree(ddv);
  return 0;
}
