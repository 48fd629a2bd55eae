// A per-thread local array in a kernel launched over a large grid (100,096 blocks of 256 threads): each
// thread's array must not take new stack space.
#include <cstdio>
#include <vector>

__device__ float window_sum(const float *x, int i, int n) {
  float w[16];  // 64 bytes per thread
  for (int k = 0; k < 16; k++) w[k] = i + k < n ? x[i + k] : 0.f;
  float s = 0;
  for (int k = 0; k < 16; k++) s += w[k] * (k + 1);
  return s;
}

__global__ void windows(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = window_sum(x, i, n);
}

int main() {
  const int blocks = 100096, threads = 256, n = blocks * threads;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 13);
  float *x, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  windows<<<blocks, threads>>>(x, out, n);
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i += 9973) {
    float s = 0;
    for (int k = 0; k < 16; k++) s += (i + k < n ? h[i + k] : 0.f) * (k + 1);
    ok = ok && got[i] == s;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(x);
  cudaFree(out);
  return ok ? 0 : 1;
}
