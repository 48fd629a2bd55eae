// A 1-D convolution whose mask lives in a `__constant__` variable template (one array per element type,
// filled with cudaMemcpyToSymbol(mask<T>, ...)), and a pooling-style gradient kernel template that takes a
// stateless functor object by value among a dozen other arguments (an empty class: g++ passes it in no
// register and no stack slot, so the arguments after it must still arrive in their places).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "check.h"

#define MAX_MASK 9
#define BLOCK 128

template <typename T>
__constant__ T mask[MAX_MASK];

template <typename T>
__global__ void conv1d(const T *in, T *out, int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T s = 0;
  int start = i - width / 2;
  for (int j = 0; j < width; j++)
    if (start + j >= 0 && start + j < n) s += in[start + j] * mask<T>[j];
  out[i] = s;
}

template <typename T>
bool run_conv(int n, int width) {
  T *h_in = new T[n], *h_out = new T[n], h_mask[MAX_MASK];
  for (int i = 0; i < n; i++) h_in[i] = (T)(rand() % 50);
  for (int j = 0; j < MAX_MASK; j++) h_mask[j] = (T)(j % 3 + 1);
  T *d_in, *d_out;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpyToSymbol(mask<T>, h_mask, width * sizeof(T)));
  conv1d<T><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n, width);
  CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    T s = 0;
    for (int j = 0; j < width; j++) {
      int k = i - width / 2 + j;
      if (k >= 0 && k < n) s += h_in[k] * h_mask[j];
    }
    ok = s == h_out[i];
  }
  cudaFree(d_in); cudaFree(d_out);
  delete[] h_in; delete[] h_out;
  return ok;
}

struct AvgGrad {
  __host__ __device__ void compute(float dy, float scale, float *dx) const { *dx += scale * dy; }
};
struct Scaled {  // (not empty: one float travels with it)
  float k;
  __host__ __device__ void compute(float dy, float scale, float *dx) const { *dx += k * scale * dy; }
};

template <class Op>
__global__ void pool_grad(int n, const float *dy, int h, int w, int oh, int ow, int ks, int stride,
                          int pad_h, int pad_w, Op op, bool exclusive, float *dx, bool last) {
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
    int x = idx % w + pad_w, y = idx / w + pad_h;
    int py0 = y < ks ? 0 : (y - ks) / stride + 1, px0 = x < ks ? 0 : (x - ks) / stride + 1;
    int py1 = min(y / stride + 1, oh), px1 = min(x / stride + 1, ow);
    float g = 0;
    for (int py = py0; py < py1; py++)
      for (int px = px0; px < px1; px++) {
        int size = exclusive ? ks * ks - py : ks * ks;
        op.compute(dy[py * ow + px], 1.f / size, &g);
      }
    dx[idx] = last ? -g : g;
  }
}

template <class Op>
bool run_pool(Op op) {
  const int h = 40, w = 36, ks = 5, stride = 2, oh = (h - ks) / stride + 1, ow = (w - ks) / stride + 1;
  float *dy = new float[oh * ow], *dx = new float[h * w];
  for (int i = 0; i < oh * ow; i++) dy[i] = (float)(i % 7);
  float *d_dy, *d_dx;
  CHECK_CUDA(cudaMalloc(&d_dy, oh * ow * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_dx, h * w * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_dy, dy, oh * ow * sizeof(float), cudaMemcpyHostToDevice));
  pool_grad<Op><<<4, 64>>>(h * w, d_dy, h, w, oh, ow, ks, stride, 0, 0, op, true, d_dx, true);
  CHECK_CUDA(cudaMemcpy(dx, d_dx, h * w * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int idx = 0; idx < h * w && ok; idx++) {
    int x = idx % w, y = idx / w;
    int py0 = y < ks ? 0 : (y - ks) / stride + 1, px0 = x < ks ? 0 : (x - ks) / stride + 1;
    int py1 = std::min(y / stride + 1, oh), px1 = std::min(x / stride + 1, ow);
    float g = 0;
    for (int py = py0; py < py1; py++)
      for (int px = px0; px < px1; px++) op.compute(dy[py * ow + px], 1.f / (ks * ks - py), &g);
    ok = std::fabs(-g - dx[idx]) < 1e-4f;
  }
  cudaFree(d_dy); cudaFree(d_dx);
  delete[] dy; delete[] dx;
  return ok;
}

int main() {
  srand(5);
  bool ok = true;
  for (int width = 3; width <= MAX_MASK; width += 2) {
    ok &= run_conv<double>(1000, width);
    ok &= run_conv<float>(777, width);
    ok &= run_conv<int16_t>(512, width);
  }
  ok &= run_pool(AvgGrad());
  ok &= run_pool(Scaled{0.5f});
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
