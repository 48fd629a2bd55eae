// Lambdas in device code that capture `this` (explicitly, implicitly through [=] and [&], and `*this` by copy)
// and init captures (`[v = x * 2]`, `[&acc = total]`, mutable counters), also inside a method of a derived
// class reading its base's members, and passed to a device function template. Checked against the same code
// run on the host.
#include <chrono>
#include <random>
#include <vector>
#include "check.h"

template <typename F>
__host__ __device__ float apply_n(F f, float x, int n) {
  for (int k = 0; k < n; k++) x = f(x);
  return x;
}

struct Filter {
  float gain;
  int taps;
  __host__ __device__ float run(const float *w, float x) const {
    auto tap = [this, w](int k) { return w[k % taps] * gain; };
    auto damp = [=](float v) { return v * 0.5f + tap(1) + this->gain; };
    float acc = 0.0f;
    auto add = [&acc, scale = gain * 2](float v) { acc += v * scale; };
    for (int k = 0; k < taps; k++) add(tap(k) * x);
    auto snapshot = [*this](float v) { return v - gain * taps; };
    return apply_n(damp, acc, 2) + snapshot(x);
  }
};

struct Boosted : Filter {
  float boost;
  __host__ __device__ float run2(const float *w, float x) const {
    auto mix = [&](float v) { return run(w, v) * boost + gain; };  // base members through the captured this
    return mix(x);
  }
};

__host__ __device__ float evaluate(const float *w, float x, int i) {
  Boosted b;
  b.gain = 0.25f + (i % 3);
  b.taps = 3 + i % 4;
  b.boost = 1.5f;
  int calls = 0;
  auto counted = [&c = calls, step = i % 5 + 1]() mutable { c += step; step *= 2; return (float)c; };
  float first = counted(), second = counted();
  auto scaled = [v = x * 2, b](float z) { return v * z + b.gain; };
  return b.run2(w, x) + scaled(0.5f) + first + second + calls;
}

__global__ void kernel(const float *w, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate(w, x[i], i);
}

int main() {
  const int n = 4096;
  std::mt19937 gen(8);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> w(8), x(n), out(n), want(n);
  for (auto &v : w) v = dist(gen);
  for (auto &v : x) v = dist(gen);
  for (int i = 0; i < n; i++) want[i] = evaluate(w.data(), x[i], i);
  float *dw, *dx, *dout;
  CHECK_CUDA(cudaMalloc(&dw, w.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dw, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  auto t0 = std::chrono::steady_clock::now();
  kernel<<<n / 128, 128>>>(dw, dx, dout, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("kernel %.1f us\n", std::chrono::duration<double, std::micro>(t1 - t0).count());
  bool ok = close_enough(out.data(), want.data(), n, 1e-5);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
