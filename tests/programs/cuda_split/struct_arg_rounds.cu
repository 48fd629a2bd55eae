// Barriers in a loop bounded by a field of a by-value struct argument (uniform across the block).
#include <cstdio>
#include <vector>
struct Cfg { int rounds; float scale;  };
__global__ void k(float *x, Cfg c) {
  __shared__ float s[64];
  for (int r = 0; r < c.rounds; r++) {
    s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x] * c.scale;
    __syncthreads();
    x[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    __syncthreads();
  }
  for (int g = 0; g < gridDim.x; g++) { __syncthreads(); }
}
int main() {
  std::vector<float> h(128); for (int i = 0; i < 128; i++) h[i] = i;
  float *d; cudaMalloc(&d, 512); cudaMemcpy(d, h.data(), 512, cudaMemcpyHostToDevice);
  Cfg c{3, 2.f};
  k<<<2, 64>>>(d, c);
  cudaMemcpy(h.data(), d, 512, cudaMemcpyDeviceToHost);
  bool ok = h[0] == 63 * 8 && h[127] == 64 * 8;
  printf("%g %g\n%s\n", h[0], h[127], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
