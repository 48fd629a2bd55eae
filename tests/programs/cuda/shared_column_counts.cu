// Per-thread histograms kept in a column of `__shared__` memory (`counts[bin][tid]++`, each thread updating
// only its own column) by threads that survive an early `return`, then a cascade where thread t reads thread
// t-1's previous value before anyone overwrites it (the lockstep order such code relies on) -- the first
// needs no ordering between the threads, the second does.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include "check.h"

#define BX 16
#define BY 8
#define BINS 8

template <int bx, int by>
__global__ void window_entropy(float *out, const unsigned char *img, const float *log_table, int h, int w) {
  __shared__ int counts[BINS][bx * by];
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  const int col = threadIdx.y * bx + threadIdx.x;
  for (int b = 0; b < BINS; b++) counts[b][col] = 0;
  int total = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h) {
        counts[img[yy * w + xx]][col]++;
        total++;
      }
    }
  float e = 0.f;
  for (int b = 0; b < BINS; b++) e -= log_table[counts[b][col]];
  out[y * w + x] = e / total + log2f((float)total);
}

// one step of a first-order recursive filter over a block: thread t combines its input with the previous
// output of thread t-1
__global__ void cascade(float *data, int steps) {
  __shared__ float s_prev[64];
  int t = threadIdx.x;
  s_prev[t] = 0.f;
  __syncthreads();
  for (int s = 0; s < steps; s++) {
    float left = t > 0 ? s_prev[t - 1] : 1.f;
    s_prev[t] = 0.5f * left + data[t];
    __syncthreads();
  }
  data[t] = s_prev[t];
}

int main() {
  const int h = 37, w = 45;  // (partial blocks at the right and bottom edges)
  unsigned char *img = (unsigned char *)malloc(h * w);
  float *out = (float *)malloc(h * w * sizeof(float)), table[10];
  srand(11);
  for (int i = 0; i < h * w; i++) img[i] = (unsigned char)(rand() % BINS);
  for (int n = 0; n < 10; n++) table[n] = n ? n * log2f((float)n) : 0.f;
  unsigned char *d_img;
  float *d_out, *d_table;
  CHECK_CUDA(cudaMalloc(&d_img, h * w));
  CHECK_CUDA(cudaMalloc(&d_out, h * w * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_table, sizeof table));
  CHECK_CUDA(cudaMemcpy(d_img, img, h * w, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_table, table, sizeof table, cudaMemcpyHostToDevice));
  window_entropy<BX, BY><<<dim3((w + BX - 1) / BX, (h + BY - 1) / BY), dim3(BX, BY)>>>(d_out, d_img, d_table, h, w);
  CHECK_CUDA(cudaMemcpy(out, d_out, h * w * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < h && ok; y++)
    for (int x = 0; x < w && ok; x++) {
      int c[BINS] = {0}, total = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int xx = x + dx, yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < w && yy < h) { c[img[yy * w + xx]]++; total++; }
        }
      float e = 0.f;
      for (int b = 0; b < BINS; b++) e -= table[c[b]];
      e = e / total + log2f((float)total);
      if (fabsf(e - out[y * w + x]) > 1e-4f) {
        printf("entropy at (%d, %d): %f vs %f\n", x, y, out[y * w + x], e);
        ok = false;
      }
    }

  float data[64], ref[64], prev[64] = {0};
  for (int t = 0; t < 64; t++) data[t] = (float)(t % 5);
  float *d_data;
  CHECK_CUDA(cudaMalloc(&d_data, sizeof data));
  CHECK_CUDA(cudaMemcpy(d_data, data, sizeof data, cudaMemcpyHostToDevice));
  cascade<<<1, 64>>>(d_data, 6);
  CHECK_CUDA(cudaMemcpy(ref, d_data, sizeof ref, cudaMemcpyDeviceToHost));
  for (int s = 0; s < 6; s++) {
    float next[64];
    for (int t = 0; t < 64; t++) next[t] = 0.5f * (t > 0 ? prev[t - 1] : 1.f) + data[t];
    for (int t = 0; t < 64; t++) prev[t] = next[t];
  }
  for (int t = 0; t < 64; t++) ok &= fabsf(prev[t] - ref[t]) < 1e-5f;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(img); free(out);
  return ok ? 0 : 1;
}
