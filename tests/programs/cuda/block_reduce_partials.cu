// Block-wide reductions with CUB's BlockReduce, in the ways benchmark codes write them: a sum per row inside a
// grid-stride loop over rows, a maximum over a 2-D block, a sum over the valid threads of a ragged last tile
// (storage shared through a union), a sum of per-thread arrays, and a reduction of __half values assigned from
// integers. Each result is compared with a loop on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cub/cub.cuh>

#define ROW_THREADS 128

// rows of `cols` scores: count the rows whose total exceeds `limit`
__global__ void rows_over_limit(const float *scores, int rows, int cols, float limit, int *count) {
  typedef cub::BlockReduce<float, ROW_THREADS> RowSum;
  __shared__ typename RowSum::TempStorage storage;
  int mine = 0;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float part = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) part += scores[r * cols + c];
    float total = RowSum(storage).Sum(part);
    if (threadIdx.x == 0 && total > limit) mine++;
  }
  if (threadIdx.x == 0) atomicAdd(count, mine);
}

// the largest value of each 16x8 tile
__global__ void tile_max(const int *v, int width, int *out) {
  typedef cub::BlockReduce<int, 16, cub::BLOCK_REDUCE_RAKING, 8> TileMax;
  __shared__ typename TileMax::TempStorage storage;
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  int best = TileMax(storage).Reduce(v[y * width + x], cub::Max());
  if (threadIdx.x == 0 && threadIdx.y == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = best;
}

// sums of 64-element tiles of n values; the last tile is short
__global__ void tile_sums(const long long *v, int n, long long *out) {
  typedef cub::BlockReduce<long long, 64> TileSum;
  __shared__ union {
    typename TileSum::TempStorage reduce;
    long long staged[64];
  } shared;
  int i = blockIdx.x * 64 + threadIdx.x;
  shared.staged[threadIdx.x] = i < n ? v[i] : 0;
  __syncthreads();
  long long mine = shared.staged[threadIdx.x] * 2;
  __syncthreads();
  int valid = n - blockIdx.x * 64 < 64 ? n - blockIdx.x * 64 : 64;
  long long s = TileSum(shared.reduce).Sum(mine, valid);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// each thread holds four items; one sum per block
__global__ void item_sums(const int *v, int *out) {
  typedef cub::BlockReduce<int, 32> WarpSum;
  __shared__ typename WarpSum::TempStorage storage;
  int items[4];
  for (int k = 0; k < 4; k++) items[k] = v[(blockIdx.x * 32 + threadIdx.x) * 4 + k];
  int s = WarpSum(storage).Sum(items);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// __half values set from integers (thread index, a negative constant), summed per block
__global__ void half_sums(float *out) {
  typedef cub::BlockReduce<__half, 32> HalfSum;
  __shared__ typename HalfSum::TempStorage storage;
  __half h;
  if (threadIdx.x % 2) h = threadIdx.x; else h = -2;
  __half s = HalfSum(storage).Sum(h);
  if (threadIdx.x == 0) out[blockIdx.x] = __half2float(s);
}

int main() {
  bool ok = true;

  const int rows = 300, cols = 250;
  std::vector<float> scores(rows * cols);
  srand(7);
  for (auto &s : scores) s = (rand() % 1000) / 1000.f;
  int want_rows = 0;
  for (int r = 0; r < rows; r++) {
    float t = 0.f;
    for (int c = 0; c < cols; c++) t += scores[r * cols + c];
    if (t > 125.f) want_rows++;
  }
  float *d_scores; int *d_count;
  cudaMalloc(&d_scores, scores.size() * sizeof(float));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_scores, scores.data(), scores.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_count, 0, sizeof(int));
  rows_over_limit<<<37, ROW_THREADS>>>(d_scores, rows, cols, 125.f, d_count);
  int got_rows = -1;
  cudaMemcpy(&got_rows, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("rows over the limit: %d (host %d)\n", got_rows, want_rows);
  ok = ok && got_rows == want_rows;

  const int width = 64, height = 24;
  std::vector<int> grid(width * height);
  for (int i = 0; i < width * height; i++) grid[i] = (i * 7919) % 1000 - 500;
  int *d_grid, *d_max;
  cudaMalloc(&d_grid, grid.size() * sizeof(int));
  cudaMalloc(&d_max, 12 * sizeof(int));
  cudaMemcpy(d_grid, grid.data(), grid.size() * sizeof(int), cudaMemcpyHostToDevice);
  tile_max<<<dim3(4, 3), dim3(16, 8)>>>(d_grid, width, d_max);
  int got_max[12];
  cudaMemcpy(got_max, d_max, sizeof(got_max), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 12; t++) {
    int tx = t % 4, ty = t / 4, best = -1000;
    for (int y = ty * 8; y < ty * 8 + 8; y++)
      for (int x = tx * 16; x < tx * 16 + 16; x++) best = grid[y * width + x] > best ? grid[y * width + x] : best;
    ok = ok && got_max[t] == best;
  }

  const int n = 1000, tiles = (n + 63) / 64;
  std::vector<long long> vals(n);
  for (int i = 0; i < n; i++) vals[i] = (long long)i * i - 3000;
  long long *d_vals, *d_tiles;
  cudaMalloc(&d_vals, n * sizeof(long long));
  cudaMalloc(&d_tiles, tiles * sizeof(long long));
  cudaMemcpy(d_vals, vals.data(), n * sizeof(long long), cudaMemcpyHostToDevice);
  tile_sums<<<tiles, 64>>>(d_vals, n, d_tiles);
  std::vector<long long> got_tiles(tiles);
  cudaMemcpy(got_tiles.data(), d_tiles, tiles * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int t = 0; t < tiles; t++) {
    long long s = 0;
    for (int i = t * 64; i < n && i < t * 64 + 64; i++) s += 2 * vals[i];
    ok = ok && got_tiles[t] == s;
  }
  printf("last tile sum: %lld\n", got_tiles[tiles - 1]);

  std::vector<int> items(5 * 32 * 4);
  for (size_t i = 0; i < items.size(); i++) items[i] = (int)(i % 13) - 6;
  int *d_items, *d_isums;
  cudaMalloc(&d_items, items.size() * sizeof(int));
  cudaMalloc(&d_isums, 5 * sizeof(int));
  cudaMemcpy(d_items, items.data(), items.size() * sizeof(int), cudaMemcpyHostToDevice);
  item_sums<<<5, 32>>>(d_items, d_isums);
  int got_isums[5];
  cudaMemcpy(got_isums, d_isums, sizeof(got_isums), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 5; b++) {
    int s = 0;
    for (int i = b * 128; i < b * 128 + 128; i++) s += items[i];
    ok = ok && got_isums[b] == s;
  }

  float *d_half;
  cudaMalloc(&d_half, 2 * sizeof(float));
  half_sums<<<2, 32>>>(d_half);
  float got_half[2];
  cudaMemcpy(got_half, d_half, sizeof(got_half), cudaMemcpyDeviceToHost);
  __half host_h;
  host_h = 5u;  // host code assigns integers too
  float want_half = 0.f;
  for (int t = 0; t < 32; t++) want_half += t % 2 ? t : -2;
  printf("half sum: %g (host %g), 5u as half: %g\n", got_half[0], want_half, __half2float(host_h));
  ok = ok && got_half[0] == want_half && got_half[1] == want_half && __half2float(host_h) == 5.f;

  cudaFree(d_scores); cudaFree(d_count); cudaFree(d_grid); cudaFree(d_max); cudaFree(d_vals);
  cudaFree(d_tiles); cudaFree(d_items); cudaFree(d_isums); cudaFree(d_half);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
