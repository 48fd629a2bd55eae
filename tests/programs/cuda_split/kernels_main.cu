#include <cstdio>
#include <vector>
#include "kernels_lib.h"

int main() {
  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (i - 500) * 0.01f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int threads = 96;  // not a constant expression at the launch: the generic stub
  saturate<<<(n + threads - 1) / threads, threads>>>(d, -1.f, 2.f, n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  int *di;
  cudaMalloc(&di, n * sizeof(int));
  launch_fill(di, 7, n);
  std::vector<int> hi(n);
  cudaMemcpy(hi.data(), di, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    float v = (i - 500) * 0.01f;
    float want = v < -1.f ? -1.f : v > 2.f ? 2.f : v;
    ok = ok && h[i] == want && hi[i] == 7 + i;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
