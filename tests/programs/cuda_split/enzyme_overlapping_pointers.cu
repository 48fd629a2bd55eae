// Enzyme's GPU form when distinct pointer parameters share memory, as nvcc allows without __restrict__:
//  * the gradients of two inputs kept in one buffer, half a buffer apart, so that threads of different blocks
//    add into the same gradient element (the adjoints must then be atomic: ad/gpu_block.py disjoint_shadows);
//  * an in-place update, out == in and d_out == d_in, checked against central finite differences;
//  * four arrays carved out of one cudaMalloc'd buffer without overlapping (the conservative path, still right);
//  * __restrict__ parameters, which skip the run-time check.
// With the argument "shadow-is-primal" it passes a primal as its own shadow: a run-time error naming both.
#include <cmath>
#include <cstdio>
#include <cstring>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

__device__ void product(int n, const double *a, const double *b, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] * b[i];
}
__global__ void grad_product(int n, const double *a, double *da, const double *b, double *db, double *y,
                             double *dy) {
  __enzyme_autodiff((void *)product, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_dup, y, dy);
}

__device__ void damp(int n, const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = in[i];
    out[i] = sin(v) * v + 0.5 * v * v;
  }
}
__global__ void run_damp(int n, const double *in, double *out) { damp(n, in, out); }
__global__ void grad_damp(int n, const double *in, double *din, double *out, double *dout) {
  __enzyme_autodiff((void *)damp, enzyme_const, n, enzyme_dup, in, din, enzyme_dup, out, dout);
}

__device__ void scale_restrict(int n, const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3.0 * x[i] * x[i];
}
__global__ void grad_scale_restrict(int n, const double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)scale_restrict, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy);
}

static int failures;
static void expect(const char *what, int i, double got, double want, double tol) {
  if (!(std::fabs(got - want) <= tol * (1.0 + std::fabs(want)))) {
    if (failures++ < 5) printf("%s[%d] = %.12g, expected %.12g\n", what, i, got, want);
  }
}

int main(int argc, char **argv) {
  const int n = 1 << 15, h = n / 2, reps = 8;
  double *x, *g, *y, *dy;
  cudaMalloc(&x, (n + h) * sizeof(double));
  cudaMalloc(&g, (n + h) * sizeof(double));
  cudaMalloc(&y, n * sizeof(double));
  cudaMalloc(&dy, n * sizeof(double));
  double *hx = new double[n + h], *hg = new double[n + h], *hdy = new double[n];
  for (int i = 0; i < n + h; i++) hx[i] = 0.5 + (i % 7) * 0.25;
  cudaMemcpy(x, hx, (n + h) * sizeof(double), cudaMemcpyHostToDevice);
  if (argc > 1 && !strcmp(argv[1], "shadow-is-primal")) {
    grad_product<<<n / 64, 64>>>(n, x, x, x + h, g + h, y, dy);
    cudaDeviceSynchronize();
    return 0;
  }

  // 1. d a[i] and d b[i] = d a[i + h] land in one gradient buffer: element j gets b[j] + a[j - h] per launch
  cudaMemset(g, 0, (n + h) * sizeof(double));
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < n; i++) hdy[i] = 1.0 + (i % 3);
    cudaMemcpy(dy, hdy, n * sizeof(double), cudaMemcpyHostToDevice);
    grad_product<<<n / 64, 64>>>(n, x, g, x + h, g + h, y, dy);
  }
  cudaMemcpy(hg, g, (n + h) * sizeof(double), cudaMemcpyDeviceToHost);
  for (int j = 0; j < n + h; j++) {
    double want = 0;
    if (j < n) want += hx[j + h] * (1.0 + (j % 3));
    if (j >= h) want += hx[j - h] * (1.0 + ((j - h) % 3));
    expect("shared gradient", j, hg[j], reps * want, 1e-12);
  }

  // 2. in place: out == in, d out == d in; central differences of the primal kernel (element-wise)
  const int m = 4096;
  double *u, *du, *hu = new double[m], *lo = new double[m], *hi = new double[m], *hdu = new double[m];
  cudaMalloc(&u, m * sizeof(double));
  cudaMalloc(&du, m * sizeof(double));
  const double eps = 1e-6;
  for (int s = -1; s <= 1; s += 2) {
    for (int i = 0; i < m; i++) hu[i] = 0.1 + 0.001 * i + s * eps;
    cudaMemcpy(u, hu, m * sizeof(double), cudaMemcpyHostToDevice);
    run_damp<<<m / 128, 128>>>(m, u, u);
    cudaMemcpy(s < 0 ? lo : hi, u, m * sizeof(double), cudaMemcpyDeviceToHost);
  }
  for (int i = 0; i < m; i++) { hu[i] = 0.1 + 0.001 * i; hdu[i] = 1.0; }
  cudaMemcpy(u, hu, m * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(du, hdu, m * sizeof(double), cudaMemcpyHostToDevice);
  grad_damp<<<m / 128, 128>>>(m, u, du, u, du);
  cudaMemcpy(hdu, du, m * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i++) expect("in-place gradient", i, hdu[i], (hi[i] - lo[i]) / (2 * eps), 1e-6);

  // 3. four arrays in one buffer, not overlapping: x | dx | y | dy
  double *pool;
  cudaMalloc(&pool, 4 * m * sizeof(double));
  double *px = pool, *pdx = pool + m, *py = pool + 2 * m, *pdy = pool + 3 * m;
  cudaMemcpy(px, hu, m * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(pdx, 0, m * sizeof(double));
  for (int i = 0; i < m; i++) hdu[i] = 2.0;
  cudaMemcpy(pdy, hdu, m * sizeof(double), cudaMemcpyHostToDevice);
  grad_damp<<<m / 128, 128>>>(m, px, pdx, py, pdy);
  cudaMemcpy(hdu, pdx, m * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i++) expect("pooled gradient", i, hdu[i], 2.0 * (hi[i] - lo[i]) / (2 * eps), 1e-6);

  // 4. __restrict__ parameters: d x = 6 x dy
  cudaMemset(pdx, 0, m * sizeof(double));
  for (int i = 0; i < m; i++) hdu[i] = 1.0;
  cudaMemcpy(pdy, hdu, m * sizeof(double), cudaMemcpyHostToDevice);
  grad_scale_restrict<<<m / 128, 128>>>(m, px, pdx, py, pdy);
  cudaMemcpy(hdu, pdx, m * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i++) expect("restrict gradient", i, hdu[i], 6.0 * hu[i], 1e-12);

  cudaFree(pool); cudaFree(u); cudaFree(du); cudaFree(x); cudaFree(g); cudaFree(y); cudaFree(dy);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
