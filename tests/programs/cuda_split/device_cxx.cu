// C++ in device code: a functor passed to a device function template, a struct with a default member initializer
// and methods, std:: math, CUDA's min/max overloads for mixed integer types, abs/llabs.
#include <cstdio>
#include <cmath>
#include <vector>
struct Acc { float s = 0; __device__ void add(float v) { s += v; } __device__ float get() const { return s; } };
template <typename F> __device__ float apply(F f, float x) { return f(x); }
__global__ void k(const float *x, float *y, long *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  struct Sq { __device__ float operator()(float v) const { return v * v; } } sq;
  Acc a;
  a.add(apply(sq, x[i]));
  a.add(std::sqrt(std::fabs(x[i])));
  a.add(fminf(x[i], 0.5f) + max(i, 3) + min(2u, (unsigned)i));
  y[i] = a.get();
  z[i] = max((long)i * 3, 10L) + abs(-i) + llabs(-7LL);
}
int main() {
  const int n = 64; std::vector<float> h(n), r(n); std::vector<long> hz(n);
  for (int i = 0; i < n; i++) h[i] = (i - 32) * 0.25f;
  float *x, *y; long *z; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4); cudaMalloc(&z, n * 8);
  cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice);
  k<<<2, 32>>>(x, y, z, n);
  cudaMemcpy(r.data(), y, n * 4, cudaMemcpyDeviceToHost); cudaMemcpy(hz.data(), z, n * 8, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    float v = h[i];
    float want = v * v + std::sqrt(std::fabs(v)) + (std::fmin(v, 0.5f) + std::max(i, 3) + std::min(2u, (unsigned)i));
    long wz = std::max((long)i * 3, 10L) + i + 7;
    ok = ok && std::fabs(r[i] - want) < 1e-5 && hz[i] == wz;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
