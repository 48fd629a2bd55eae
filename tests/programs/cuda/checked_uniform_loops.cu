// Loops holding __syncthreads() whose trip counts pgcc cannot prove the same in every thread of a block, in the
// style of block-cooperative text search and CSR row kernels: cpuify counts the condition over the block at run
// time. pair_search's exit test is uniform only by arithmetic ((pos / blockDim.x) * blockDim.x with
// pos = threadIdx.x + k * blockDim.x); row_scale's grid-stride row loop starts at threadIdx.y and is uniform
// because the grid covers the rows exactly. list_rank (run with the argument "rank") has a barrier in a loop
// whose trip count really differs between threads: the program stops with the loop's position.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include <cuda.h>

#define BS 64
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void pair_search(const unsigned char *text, int window, int n, unsigned char a, unsigned char b,
                            int *found)
{
  __shared__ int stack[2 * BS];
  __shared__ int top;
  __shared__ int hits;
  int tid = threadIdx.x;
  if (tid == 0) { top = 0; hits = 0; }
  int begin = blockIdx.x * window;
  int len = min(window, n - 1 - begin);
  __syncthreads();
  int pos = tid;
  while (true) {
    if (pos < len && text[begin + pos] == a && text[begin + pos + 1] == b)
      stack[atomicAdd(&top, 1)] = pos;
    pos += blockDim.x;
    __syncthreads();
    int size = top;
    __syncthreads();
    if (size < (int)blockDim.x && (pos / blockDim.x) * blockDim.x < len) continue;
    if (tid < size) {
      int slot = atomicSub(&top, 1) - 1;
      if (text[begin + stack[slot]] == a) atomicAdd(&hits, 1);
    }
    __syncthreads();
    if ((pos / blockDim.x) * blockDim.x >= len && top <= 0) break;
  }
  if (tid == 0) found[blockIdx.x] = hits;
}

// each row of a CSR matrix scaled by its sum; threadIdx.y picks the row, the x threads share its entries
template <typename T>
__global__ void row_scale(int n, const int *ptr, T *val)
{
  __shared__ T part[4][16];
  for (int row = threadIdx.y + blockIdx.y * blockDim.y; row < n; row += gridDim.y * blockDim.y) {
    T s = 0;
    for (int j = ptr[row] + threadIdx.x; j < ptr[row + 1]; j += blockDim.x) s += val[j];
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    T total = 0;
    for (int k = 0; k < (int)blockDim.x; k++) total += part[threadIdx.y][k];
    __syncthreads();
    for (int j = ptr[row] + threadIdx.x; j < ptr[row + 1]; j += blockDim.x) val[j] /= total;
  }
}

__global__ void list_rank(long *list, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    long node, next;
    while (((node = list[i]) >> 32) != -1L && ((next = list[node >> 32]) >> 32) != -1L) {
      long t = (node & 0xffffffffL) + (next & 0xffffffffL) + ((next >> 32) << 32);
      __syncthreads();
      list[i] = t;
    }
  }
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "rank")) {
    const int m = 512;
    std::vector<long> list(m);
    for (int i = 0; i < m; i++) list[i] = ((i + 1 < m ? (long)(i + 1) : -1L) << 32) | (i + 1 < m);
    long *d_list;
    CHECK(cudaMalloc(&d_list, m * sizeof(long)));
    CHECK(cudaMemcpy(d_list, list.data(), m * sizeof(long), cudaMemcpyHostToDevice));
    list_rank<<<m / 256, 256>>>(d_list, m);
    CHECK(cudaDeviceSynchronize());
    printf("ranked\n");
    return 0;
  }
  std::mt19937 gen(17);
  const int n = 20000, window = 1000;
  std::vector<unsigned char> text(n);
  for (auto &c : text) c = "abcab"[gen() % 5];
  int blocks = (n - 1 + window - 1) / window;
  unsigned char *d_text; int *d_found;
  CHECK(cudaMalloc(&d_text, n));
  CHECK(cudaMalloc(&d_found, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_text, text.data(), n, cudaMemcpyHostToDevice));
  pair_search<<<blocks, BS>>>(d_text, window, n, 'a', 'b', d_found);
  std::vector<int> found(blocks);
  CHECK(cudaMemcpy(found.data(), d_found, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int k = 0; k < blocks; k++) {
    int ref = 0;
    for (int p = k * window; p < k * window + window && p < n - 1; p++) ref += text[p] == 'a' && text[p + 1] == 'b';
    if (ref != found[k]) { printf("window %d: %d pairs, expected %d\n", k, found[k], ref); ok = false; }
  }

  const int rows = 256;
  std::vector<int> ptr(rows + 1, 0);
  for (int r = 0; r < rows; r++) ptr[r + 1] = ptr[r] + 1 + gen() % 40;
  std::vector<double> val(ptr[rows]), ref(ptr[rows]);
  for (auto &v : val) v = 1 + gen() % 100;
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int j = ptr[r]; j < ptr[r + 1]; j++) s += val[j];
    for (int j = ptr[r]; j < ptr[r + 1]; j++) ref[j] = val[j] / s;
  }
  int *d_ptr; double *d_val;
  CHECK(cudaMalloc(&d_ptr, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_val, val.size() * sizeof(double)));
  CHECK(cudaMemcpy(d_ptr, ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(double), cudaMemcpyHostToDevice));
  dim3 threads(16, 4), grid(1, rows / 4 / 2);  // each thread row takes two rows of the matrix
  row_scale<double><<<grid, threads>>>(rows, d_ptr, d_val);
  CHECK(cudaMemcpy(val.data(), d_val, val.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (size_t j = 0; j < val.size(); j++)
    if (val[j] < ref[j] * (1 - 1e-12) || val[j] > ref[j] * (1 + 1e-12)) { ok = false; printf("val[%zu]\n", j); break; }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
