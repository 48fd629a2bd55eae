// Kernel launches written inside macro arguments: a dispatch macro that turns a run-time value into a
// compile-time constant and calls a lambda holding the launch (the style of PyTorch-derived kernels such as
// GeGLU: `DISPATCH(n, N, [&] { kernel<N><<<grid, block>>>(out, in); })`, nested), and a checking macro given
// the parenthesized launch as its one argument. Results are compared with a host computation.
#include <cstdio>
#include <stdexcept>
#include <string>
#include "check.h"

#define DISPATCH_WIDTH(VALUE, NAME, ...) [&] { \
    if (VALUE == 2) { constexpr int NAME = 2; return __VA_ARGS__(); } \
    if (VALUE == 4) { constexpr int NAME = 4; return __VA_ARGS__(); } \
    throw std::invalid_argument("DISPATCH_WIDTH " + std::to_string(VALUE)); \
  }()
#define DISPATCH_SCALE(VALUE, NAME, ...) [&] { \
    if (VALUE == 3) { constexpr int NAME = 3; return __VA_ARGS__(); } \
    if (VALUE == 5) { constexpr int NAME = 5; return __VA_ARGS__(); } \
    throw std::invalid_argument("DISPATCH_SCALE " + std::to_string(VALUE)); \
  }()
#define LAUNCH_AND_SYNC(stmt) do { stmt; CHECK_CUDA(cudaDeviceSynchronize()); } while (0)

template <typename T, int WIDTH, int SCALE>
__global__ void widen(T *out, const T *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T acc = 0;
    for (int w = 0; w < WIDTH; w++) acc += in[(i + w) % n];
    out[i] = SCALE * acc;
  }
}

__global__ void shift(int *out, const int *in, int n, int by)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i + by) % n] - i;
}

template <typename T>
void run(T *out, const T *in, int n, int width, int scale)
{
  dim3 grid((n + 63) / 64);
  DISPATCH_WIDTH(width, W, [&] {
    DISPATCH_SCALE(scale, S, [&] {
      widen<T, W, S><<<grid, 64>>>(out, in, n);
    });
  });
}

int main()
{
  const int n = 1000;
  int *in, *out;
  CHECK_CUDA(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK_CUDA(cudaMallocManaged(&out, n * sizeof(int)));
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
  int bad = 0;
  const int widths[] = {2, 4}, scales[] = {3, 5};
  for (int w : widths)
    for (int s : scales) {
      run(out, in, n, w, s);
      CHECK_CUDA(cudaDeviceSynchronize());
      for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int k = 0; k < w; k++) acc += in[(i + k) % n];
        bad += out[i] != s * acc;
      }
    }
  LAUNCH_AND_SYNC((shift<<<(n + 127) / 128, 128>>>(out, in, n, 7)));
  for (int i = 0; i < n; i++) bad += out[i] != in[(i + 7) % n] - i;
  bool threw = false;
  try { run(out, in, n, 3, 3); } catch (const std::invalid_argument &) { threw = true; }
  bad += !threw;
  printf("mismatches: %d\n%s\n", bad, bad ? "FAIL" : "PASS");
  cudaFree(in); cudaFree(out);
  return bad != 0;
}
