// Loops whose condition reads __shared__ variables that one thread advances before the loop body's last
// __syncthreads(): every thread evaluates the condition right after a barrier, so all take the same branch
// (merge-path and work-list kernels). One kernel keeps its window bounds in volatile shared variables,
// the other in plain ones and exits on a flag some threads set. A third indexes a shared window backwards
// with `end[~i]` on an unsigned i, which a GPU's 32-bit shared addressing wraps to `end[-1 - i]`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

// Each block sums its segment of `x` in windows of blockDim.x elements; thread 0 moves the window.
__global__ void window_sums(const int *x, const int *seg_begin, int *out) {
  volatile __shared__ int top, stop;
  __shared__ int partial[128];
  if (threadIdx.x == 0) {
    top = seg_begin[blockIdx.x];
    stop = seg_begin[blockIdx.x + 1];
  }
  __syncthreads();
  int acc = 0;
  while (top < stop) {
    int i = top + threadIdx.x;
    partial[threadIdx.x] = i < stop ? x[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int k = 0; k < blockDim.x; k++) acc += partial[k];
      top = top + blockDim.x;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

// Doubles each value until one of them in the block passes `limit`; counts the rounds.
__global__ void rounds_until(const int *x, int limit, int *rounds, int *vals) {
  __shared__ int done, count;
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) done = count = 0;
  __syncthreads();
  while (!done) {
    v *= 2;
    if (v > limit) done = 1;
    if (threadIdx.x == 0) count++;
    __syncthreads();
  }
  vals[blockIdx.x * blockDim.x + threadIdx.x] = v;
  if (threadIdx.x == 0) rounds[blockIdx.x] = count;
}

// Reverses each block's 128 values through shared memory, reading them back with an index that wraps.
__global__ void reverse_window(const int *x, int *y) {
  __shared__ int window[130];
  int *end = window + 129;  // one past the last value (window[1..128] hold the data)
  unsigned t = threadIdx.x;
  window[1 + t] = x[blockIdx.x * 128 + t];
  __syncthreads();
  y[blockIdx.x * 128 + t] = end[~t];  // end[-1 - t]
}

int main() {
  const int blocks = 40, n = 20000;
  std::mt19937 gen(21);
  std::vector<int> x(n), seg(blocks + 1);
  for (auto &v : x) v = (int)(gen() % 1000) - 500;
  for (int b = 0; b <= blocks; b++) seg[b] = (int)((long)n * b * b / (blocks * blocks));  // uneven segments
  int *d_x, *d_seg, *d_out, *d_rounds, *d_vals;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMalloc(&d_seg, (blocks + 1) * sizeof(int));
  cudaMalloc(&d_out, blocks * sizeof(int));
  cudaMalloc(&d_rounds, blocks * sizeof(int));
  cudaMalloc(&d_vals, blocks * 64 * sizeof(int));
  cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_seg, seg.data(), (blocks + 1) * sizeof(int), cudaMemcpyHostToDevice);
  int *d_rev;
  cudaMalloc(&d_rev, blocks * 128 * sizeof(int));
  auto start = std::chrono::steady_clock::now();
  reverse_window<<<blocks, 128>>>(d_x, d_rev);
  window_sums<<<blocks, 128>>>(d_x, d_seg, d_out);
  std::vector<int> small(blocks * 64);
  for (int i = 0; i < blocks * 64; i++) small[i] = 1 + (int)(gen() % 50);
  cudaMemcpy(d_x, small.data(), small.size() * sizeof(int), cudaMemcpyHostToDevice);
  rounds_until<<<blocks, 64>>>(d_x, 5000, d_rounds, d_vals);
  cudaDeviceSynchronize();
  fprintf(stderr, "%f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::vector<int> out(blocks), rounds(blocks), vals(blocks * 64), rev(blocks * 128);
  cudaMemcpy(out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(rounds.data(), d_rounds, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(vals.data(), d_vals, vals.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(rev.data(), d_rev, rev.size() * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < blocks * 128; i++) ok = ok && rev[i] == x[i / 128 * 128 + 127 - i % 128];
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    for (int i = seg[b]; i < seg[b + 1]; i++) want += x[i];
    ok = ok && out[b] == want;
    int biggest = 0;
    for (int t = 0; t < 64; t++) biggest = std::max(biggest, small[b * 64 + t]);
    int r = 0;
    while (biggest << r <= 5000) r++;  // rounds until the largest value passes the limit
    ok = ok && rounds[b] == r;
    for (int t = 0; t < 64; t++) ok = ok && vals[b * 64 + t] == small[b * 64 + t] << r;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
