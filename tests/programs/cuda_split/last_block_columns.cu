// Blocks of 64 threads each smooth up to 8 columns of a column-major matrix held in shared memory; the last
// block takes the remainder, so the column count of a block is `(blockIdx.x == gridDim.x - 1 && r % 8) ? r % 8
// : 8`: the bound of a loop that runs in every thread, uniform across the block although it is computed
// under a condition. Also: a `const bool &` parameter of a device function.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#define COLS 8
#define ROWS 64

__device__ __forceinline__ void clamp_row(const bool &wrap, const int &n, int &row) {
  if (row >= n) row = wrap ? row - n : n - 1;
}

__global__ void smooth_columns(const float *in, float *out, int r, bool wrap) {
  __shared__ float tile[COLS][ROWS];
  int first = blockIdx.x * COLS;
  int count = (blockIdx.x == gridDim.x - 1 && r % COLS) ? r % COLS : COLS;
  for (int c = 0; c < count; c++) tile[c][threadIdx.x] = in[(first + c) * ROWS + threadIdx.x];
  __syncthreads();
  for (int c = 0; c < count; c++) {
    int below = threadIdx.x + 1;
    clamp_row(wrap, ROWS, below);
    out[(first + c) * ROWS + threadIdx.x] = 0.5f * tile[c][threadIdx.x] + 0.5f * tile[c][below];
  }
}

int main() {
  const int r = 8 * 37 + 5;  // the last block gets 5 columns
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> in(r * ROWS), got(r * ROWS);
  for (auto &v : in) v = dist(gen);
  float *d_in, *d_out;
  cudaMalloc(&d_in, in.size() * sizeof(float));
  cudaMalloc(&d_out, in.size() * sizeof(float));
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
  bool ok = true;
  for (int wrap = 0; wrap < 2; wrap++) {
    cudaMemset(d_out, 0, in.size() * sizeof(float));
    auto start = std::chrono::steady_clock::now();
    smooth_columns<<<(r + COLS - 1) / COLS, ROWS>>>(d_in, d_out, r, wrap);
    cudaDeviceSynchronize();
    auto end = std::chrono::steady_clock::now();
    fprintf(stderr, "wrap=%d: %f s\n", wrap, std::chrono::duration<double>(end - start).count());
    cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int c = 0; c < r; c++)
      for (int i = 0; i < ROWS; i++) {
        int below = i + 1 < ROWS ? i + 1 : (wrap ? 0 : ROWS - 1);
        float want = 0.5f * in[c * ROWS + i] + 0.5f * in[c * ROWS + below];
        ok = ok && got[c * ROWS + i] == want;
      }
  }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
