// Kernel templates launched from host function templates: one stub per instantiation the program reaches.
#include <cstdio>
#include <vector>
template <typename T> __global__ void fill(T *x, T v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v * i; }
template <typename T> T run(int n, T v) {
  T *d; cudaMalloc(&d, n * sizeof(T));
  fill<T><<<(n + 31) / 32, 32>>>(d, v, n);
  fill<<<(n + 31) / 32, 32>>>(d, v, n);
  std::vector<T> h(n); cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h[n - 1];
}
int main() { double a = run<double>(100, 0.5); float b = run(50, 2.0f); bool ok = a == 49.5 && b == 98.f; printf("%g %g\n%s\n", a, b, ok ? "PASS" : "FAIL"); return ok ? 0 : 1; }
