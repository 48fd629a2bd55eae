// Launches written inside macro definitions, as benchmark drivers write them: a dispatch macro choosing a
// template kernel's block shape (the kernel named with template arguments and the arguments passed through
// __VA_ARGS__), and a timing macro whose kernel is a macro parameter, both with multi-line definitions.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

template <typename T, int BX, int BY>
__global__ void row_sums(const T *x, T *sums, int rows, int cols) {
  int r = blockIdx.x * BY + threadIdx.y;
  if (r >= rows) return;
  T s = 0;
  for (int c = threadIdx.x; c < cols; c += BX) s += x[r * cols + c];
  atomicAdd(&sums[r], s);
}

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

#define DISPATCH_BY_WIDTH(cols, T, rows, ...)                                   \
  do {                                                                          \
    if ((cols) >= 64) {                                                         \
      row_sums<T, 32, 4><<<((rows) + 3) / 4, dim3(32, 4)>>>(__VA_ARGS__);       \
    } else {                                                                    \
      row_sums<T, 8, 16><<<((rows) + 15) / 16, dim3(8, 16), 0, 0>>>(__VA_ARGS__); \
    }                                                                           \
  } while (0)

#define TIMED(kernel, grid, block, ...)                                         \
  {                                                                             \
    auto t0 = std::chrono::steady_clock::now();                                 \
    kernel<<<grid, block>>>(__VA_ARGS__);                                       \
    cudaDeviceSynchronize();                                                    \
    auto t1 = std::chrono::steady_clock::now();                                 \
    fprintf(stderr, #kernel ": %f s\n", std::chrono::duration<double>(t1 - t0).count()); \
  }

int main() {
  const int rows = 300;
  std::mt19937 gen(9);
  std::uniform_int_distribution<int> dist(-50, 50);
  bool ok = true;
  for (int cols : {200, 40}) {
    std::vector<int> x(rows * cols), sums(rows);
    for (auto &v : x) v = dist(gen);
    int *d_x, *d_sums;
    cudaMalloc(&d_x, x.size() * sizeof(int));
    cudaMalloc(&d_sums, rows * sizeof(int));
    cudaMemcpy(d_x, x.data(), x.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_sums, 0, rows * sizeof(int));
    DISPATCH_BY_WIDTH(cols, int, rows, d_x, d_sums, rows, cols);
    cudaMemcpy(sums.data(), d_sums, rows * sizeof(int), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; r++) {
      int want = 0;
      for (int c = 0; c < cols; c++) want += x[r * cols + c];
      ok = ok && sums[r] == want;
    }
    cudaFree(d_x);
    cudaFree(d_sums);
  }
  std::vector<float> y(1000);
  for (int i = 0; i < 1000; i++) y[i] = 0.5f * i;
  float *d_y;
  cudaMalloc(&d_y, 1000 * sizeof(float));
  cudaMemcpy(d_y, y.data(), 1000 * sizeof(float), cudaMemcpyHostToDevice);
  TIMED(scale, 4, 256, d_y, 4.f, 1000)
  cudaMemcpy(y.data(), d_y, 1000 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 1000; i++) ok = ok && y[i] == 2.f * i;
  cudaFree(d_y);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
