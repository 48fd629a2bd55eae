// Extended lambdas (nvcc --extended-lambda) written inside host function templates and passed to kernel
// templates (one in a namespace): a transform and an indexed map, with value captures of scalars and a struct.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

struct Affine {
  float scale;
  float shift;
  int clamp;
};

template <class F, class T>
__global__ void apply(F f, const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

template <class Op>
__global__ void indexed(Op op, double *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = op(i);
}

template <class T>
void run_affine(const std::vector<T> &h, std::vector<T> &r, Affine a, T bias) {
  int n = (int)h.size();
  T *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(T));
  cudaMalloc(&d_out, n * sizeof(T));
  cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  auto f = [=] __device__ (T x) {
    T y = x * (T)a.scale + (T)a.shift + bias;
    return y > (T)a.clamp ? (T)a.clamp : y;
  };
  apply<<<(n + 127) / 128, 128>>>(f, d_in, d_out, n);
  cudaMemcpy(r.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

namespace solver {
template <typename T, int K>
double run_indexed(int n, T step) {
  double *d;
  cudaMalloc(&d, n * sizeof(double));
  indexed<<<4, 64>>>([=] __host__ __device__ (int i) { return (double)(step * (T)(i % K)); }, d, n);
  std::vector<double> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d);
  double s = 0;
  for (double v : h) s += v;
  return s;
}
}  // namespace solver

int main() {
  const int n = 1000;
  std::vector<float> hf(n), rf(n);
  std::vector<double> hd(n), rd(n);
  for (int i = 0; i < n; i++) { hf[i] = (float)(i % 37) * 0.25f; hd[i] = (i % 53) * 0.5; }
  Affine a{1.5f, -2.0f, 20};
  run_affine<float>(hf, rf, a, 0.5f);
  run_affine<double>(hd, rd, a, 0.25);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float yf = hf[i] * a.scale + a.shift + 0.5f;
    if (yf > (float)a.clamp) yf = (float)a.clamp;
    double yd = hd[i] * (double)a.scale + (double)a.shift + 0.25;
    if (yd > (double)a.clamp) yd = (double)a.clamp;
    if (rf[i] != yf || rd[i] != yd) bad++;
  }
  double s1 = solver::run_indexed<float, 7>(n, 0.5f), s2 = solver::run_indexed<int, 3>(n, 2);
  double e1 = 0, e2 = 0;
  for (int i = 0; i < n; i++) { e1 += 0.5f * (float)(i % 7); e2 += 2 * (i % 3); }
  if (s1 != e1 || s2 != e2) bad++;
  printf("checked %d elements, %d wrong, sums %.1f %.1f\n", n, bad, s1, s2);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
