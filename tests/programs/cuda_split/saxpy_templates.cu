#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  std::cerr << "CUDA error " << cudaGetErrorString(e) << std::endl; return 1; } } while (0)

template <typename T, int BS>
__global__ void scale_add(const T *x, T *y, T a, int n) {
  __shared__ T tile[BS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : T(0);
  __syncthreads();
  if (i < n) y[i] = a * tile[threadIdx.x] + y[i];
}

__device__ float sq(float v) { return v * v; }

__global__ void squares(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = sq(in[i]);
}

struct Stats { double sum; int count; };

template <typename T>
T host_sum(const std::vector<T> &v) { T s = 0; for (auto e : v) s += e; return s; }

int main() {
  const int n = 10000;
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> hx(n), hy(n), ref(n);
  std::generate(hx.begin(), hx.end(), [&] { return dist(gen); });
  std::generate(hy.begin(), hy.end(), [&] { return dist(gen); });
  for (int i = 0; i < n; i++) ref[i] = 2.5f * hx[i] + hy[i];
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&dy, n * sizeof(float)));
  cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  scale_add<float, 256><<<(n + 255) / 256, 256>>>(dx, dy, 2.5f, n);
  CHECK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && hy[i] == ref[i];
  dim3 grid(7), block(128);
  squares<<<grid, block>>>(dy, dx, n);
  cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) ok = ok && hy[i] == hx[i] * hx[i];
  Stats s{host_sum(hy), n};
  std::cout << "mean " << s.sum / s.count << " time(us) "
            << std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count() * 0 << std::endl;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(dx); cudaFree(dy);
  return ok ? 0 : 1;
}
