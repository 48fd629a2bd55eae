// Bitonic sort of 1024-key segments in shared memory: nested loops over barriers whose bounds are constants,
// a templated comparator functor, keys from <random>, std::sort as the reference, std::chrono timing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

struct Ascending {
  template <typename T> __device__ __forceinline__ bool operator()(const T &a, const T &b) const { return a > b; }
};

template <typename T, int N, typename Cmp>
__global__ void __launch_bounds__(N / 2) bitonic_segments(T *__restrict__ keys, Cmp cmp) {
  __shared__ T s[N];
  const int t = threadIdx.x;
  T *seg = keys + (size_t)blockIdx.x * N;
  s[t] = seg[t];
  s[t + N / 2] = seg[t + N / 2];
  __syncthreads();
#pragma unroll 1
  for (int size = 2; size <= N; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      int pos = 2 * t - (t & (stride - 1));
      bool up = ((pos & size) == 0);
      T a = s[pos], b = s[pos + stride];
      if (cmp(a, b) == up) {
        s[pos] = b;
        s[pos + stride] = a;
      }
      __syncthreads();
    }
  }
  seg[t] = s[t];
  seg[t + N / 2] = s[t + N / 2];
}

template <typename T> bool run(int segments, std::mt19937 &gen) {
  constexpr int N = 1024;
  std::uniform_int_distribution<int> dist(-100000, 100000);
  std::vector<T> h(segments * N);
  for (auto &v : h) v = static_cast<T>(dist(gen)) / 4;
  T *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  auto start = std::chrono::steady_clock::now();
  bitonic_segments<T, N><<<segments, N / 2>>>(d, Ascending());
  CHECK_CUDA(cudaDeviceSynchronize());
  auto stop = std::chrono::steady_clock::now();
  std::vector<T> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  for (int s = 0; s < segments; s++) std::sort(h.begin() + s * N, h.begin() + (s + 1) * N);
  printf("sort of %d x %d keys: %.3f ms\n", segments, N,
         std::chrono::duration<double, std::milli>(stop - start).count());
  return got == h;
}

int main() {
  std::mt19937 gen(7);
  bool ok = run<int>(6, gen) && run<float>(5, gen) && run<double>(3, gen);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
