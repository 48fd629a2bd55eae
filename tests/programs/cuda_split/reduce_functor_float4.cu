#include <cstdio>
#include <vector>
#include <chrono>
#include <cmath>

constexpr int BLOCK = 128;

__host__ __device__ inline float poly(float x) { return 3.f * x * x - 2.f * x + 1.f; }

struct Sum { __device__ float operator()(float a, float b) const { return a + b; } };

template <typename Op>
__global__ void reduce(const float *in, float *out, int n, Op op) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK * 2 + t;
  float v = 0.f;
  if (i < n) v = poly(in[i]);
  if (i + BLOCK < n) v = op(v, poly(in[i + BLOCK]));
  s[t] = v;
  __syncthreads();
#pragma unroll
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) s[t] = op(s[t], s[t + k]);
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}

__global__ void axpy4(const float4 *x, float4 *y, float a, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 xv = x[i], yv = y[i];
    y[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
  }
}

int main() {
  const int n = 1 << 14;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = std::sin(i * 0.001f);
  float *d, *r;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&r, sizeof(float));
  cudaMemset(r, 0, sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::high_resolution_clock::now();
  reduce<<<(n + 2 * BLOCK - 1) / (2 * BLOCK), BLOCK>>>(d, r, n, Sum());
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  float got;
  cudaMemcpy(&got, r, sizeof(float), cudaMemcpyDeviceToHost);
  double ref = 0;
  for (int i = 0; i < n; i++) ref += poly(h[i]);
  bool ok = std::fabs(got - ref) < 1e-3 * std::fabs(ref);
  std::vector<float4> x4(n / 4), y4(n / 4);
  for (int i = 0; i < n / 4; i++) { x4[i] = make_float4(i, 1, 2, 3); y4[i] = make_float4(1, 1, 1, i); }
  float4 *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float)); cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x4.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y4.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  axpy4<<<(n / 4 + 255) / 256, 256>>>(dx, dy, 2.f, n / 4);
  cudaMemcpy(y4.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n / 4; i++) ok = ok && y4[i].x == 2.f * i + 1 && y4[i].w == 6.f + i;
  printf("%f %f %lld\n", got, ref, (long long)std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count() * 0);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
