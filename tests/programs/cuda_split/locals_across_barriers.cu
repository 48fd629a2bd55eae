// Locals whose address is taken and small per-thread arrays that live across __syncthreads(): a block-wide
// smoothing in rounds where each thread keeps a 4-entry history in a local array and a running sum updated
// through a pointer, and a tiled dot product whose partial sums sit in a local array indexed by a loop. Both
// kernels run with a block size that is a compile-time constant and with one read at run time; checked against
// a CPU reference.
#include <chrono>
#include <cstdlib>
#include <random>
#include <vector>
#include "check.h"

constexpr int kRounds = 6;

__device__ void accumulate(float *acc, float v) { *acc += v; }

__device__ void shift_in(float (&hist)[4], float v) {
  for (int j = 3; j > 0; j--) hist[j] = hist[j - 1];
  hist[0] = v;
}

__global__ void smooth(const float *x, float *out, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float v = i < n ? x[i] : 0.0f;
  float sum = 0.0f;
  float hist[4] = {0, 0, 0, 0};
  for (int r = 0; r < kRounds; r++) {
    s[t] = v;
    __syncthreads();
    float left = t > 0 ? s[t - 1] : s[t], right = t + 1 < blockDim.x ? s[t + 1] : s[t];
    v = (left + s[t] + right) / 3.0f;
    accumulate(&sum, v);
    shift_in(hist, v);
    __syncthreads();
  }
  if (i < n) out[i] = sum + 10 * hist[0] + 100 * hist[3];
}

template <int PARTS>
__global__ void dot_parts(const float *a, const float *b, float *partial, int n) {
  extern __shared__ float tile[];
  float part[PARTS];
  int t = threadIdx.x;
  for (int p = 0; p < PARTS; p++) part[p] = 0.0f;
  int count = 0;
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    int i = base + t;
    tile[t] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    part[count % PARTS] += tile[blockDim.x - 1 - t];
    count++;
    __syncthreads();
  }
  float total = 0.0f;
  for (int p = 0; p < PARTS; p++) total += (p + 1) * part[p];
  partial[blockIdx.x * blockDim.x + t] = total;
}

static void smooth_ref(const std::vector<float> &x, std::vector<float> &out, int n, int threads) {
  for (int b0 = 0; b0 < n; b0 += threads) {
    std::vector<float> v(threads), sum(threads, 0.0f), h0(threads), h3(threads, 0.0f), s(threads);
    std::vector<std::vector<float>> hist(threads, std::vector<float>(4, 0.0f));
    for (int t = 0; t < threads; t++) v[t] = b0 + t < n ? x[b0 + t] : 0.0f;
    for (int r = 0; r < kRounds; r++) {
      s = v;
      for (int t = 0; t < threads; t++) {
        float left = t > 0 ? s[t - 1] : s[t], right = t + 1 < threads ? s[t + 1] : s[t];
        v[t] = (left + s[t] + right) / 3.0f;
        sum[t] += v[t];
        for (int j = 3; j > 0; j--) hist[t][j] = hist[t][j - 1];
        hist[t][0] = v[t];
      }
    }
    for (int t = 0; t < threads && b0 + t < n; t++) out[b0 + t] = sum[t] + 10 * hist[t][0] + 100 * hist[t][3];
  }
}

template <int PARTS>
static void dot_ref(const std::vector<float> &a, const std::vector<float> &b, std::vector<float> &partial, int n,
                    int blocks, int threads) {
  for (int bx = 0; bx < blocks; bx++)
    for (int t = 0; t < threads; t++) {
      float part[PARTS] = {};
      int count = 0;
      for (int base = bx * threads; base < n; base += blocks * threads) {
        int i = base + threads - 1 - t;
        part[count % PARTS] += i < n ? a[i] * b[i] : 0.0f;
        count++;
      }
      float total = 0.0f;
      for (int p = 0; p < PARTS; p++) total += (p + 1) * part[p];
      partial[bx * threads + t] = total;
    }
}

static bool run(int threads, bool constant_shape) {
  const int n = 5000, blocks = 8;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), a(n), b(n), out(n), want(n), partial(blocks * threads), want_partial(blocks * threads);
  for (int i = 0; i < n; i++) { x[i] = dist(gen); a[i] = dist(gen); b[i] = dist(gen); }
  float *dx, *dout, *da, *db, *dp;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dp, blocks * threads * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  auto start = std::chrono::steady_clock::now();
  int grid = (n + threads - 1) / threads;
  if (constant_shape) {
    smooth<<<(n + 127) / 128, 128, 128 * sizeof(float)>>>(dx, dout, n);
    dot_parts<3><<<8, 128, 128 * sizeof(float)>>>(da, db, dp, n);
  } else {
    smooth<<<grid, threads, threads * sizeof(float)>>>(dx, dout, n);
    dot_parts<3><<<blocks, threads, threads * sizeof(float)>>>(da, db, dp, n);
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(partial.data(), dp, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost));
  smooth_ref(x, want, n, threads);
  dot_ref<3>(a, b, want_partial, n, blocks, threads);
  bool ok = close_enough(out.data(), want.data(), n, 1e-5) &&
            close_enough(partial.data(), want_partial.data(), blocks * threads, 1e-5);
  printf("threads %d (%s shape): %.3f ms\n", threads, constant_shape ? "constant" : "run-time", ms);
  cudaFree(dx); cudaFree(dout); cudaFree(da); cudaFree(db); cudaFree(dp);
  return ok;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 96;
  bool ok = run(128, true) && run(threads, false);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
