// Kernels that let out-of-range threads return before the block's barriers (`if (i >= n) return;` then
// __syncthreads(): the threads left finish the tile), over a 2-D block whose rows stage sources and columns
// targets in shared memory, a block-wide early exit, and a window maximum whose in-range threads call a
// __device__ scan holding __syncthreads() in its loop; the host buffers are page-locked in place with
// cudaHostRegister and reached through cudaHostGetDevicePointer (zero-copy), as the CUDA samples do.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <algorithm>
#include "check.h"

#define TX 16
#define NS 24  // sources: blockDim.y = 32 threads, the last 8 rows return at once

__global__ void kernel_sum(int nt, const float *src, const float *tgt, const float *w, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int p = blockIdx.x * blockDim.x + tx;
  if (p >= nt) return;
  if (ty >= NS) return;
  __shared__ float s_res[TX * NS];
  __shared__ float s_tgt[TX * 2];
  __shared__ float s_src[NS * 2];
  if (ty == 0)
    for (int i = 0; i < 2; i++) s_tgt[tx * 2 + i] = tgt[p * 2 + i];
  if (tx == 0)
    for (int i = 0; i < 2; i++) s_src[ty * 2 + i] = src[ty * 2 + i];
  __syncthreads();
  float dx = s_tgt[tx * 2] - s_src[ty * 2], dy = s_tgt[tx * 2 + 1] - s_src[ty * 2 + 1];
  float d2 = dx * dx + dy * dy;
  s_res[tx * NS + ty] = expf(-d2) * w[ty];
  __syncthreads();
  if (ty == 0) {
    float r = 0.f;
    for (int i = 0; i < NS; i++) r += s_res[tx * NS + i];
    out[p] = r;
  }
}

// every thread of an odd block returns; the even blocks reverse their slice through shared memory
__global__ void reverse_even_blocks(int *data) {
  __shared__ int s[64];
  if (blockIdx.x % 2) return;
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  s[t] = data[base + t];
  __syncthreads();
  data[base + t] = s[blockDim.x - 1 - t];
}

// suffix maximum over each block's tile of a row (the pixels from a thread's own to the tile's last one in
// range), by a step-efficient scan in shared memory
__device__ void suffix_max(unsigned char *buf, unsigned char *acc, int n, int t) {
  acc[t] = buf[t];
  __syncthreads();
  for (int off = 1; off < n; off *= 2) {
    unsigned char mine = acc[t], other = t + off < n ? acc[t + off] : 0;
    __syncthreads();
    acc[t] = max(mine, other);
    __syncthreads();
  }
}

__global__ void window_max(unsigned char *dst, const unsigned char *src, int width, int win) {
  extern __shared__ unsigned char smem[];
  unsigned char *buf = smem, *acc = smem + win;
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  int n = min((int)blockDim.x, width - (int)(blockIdx.x * blockDim.x));  // threads of the tile in range
  if (x >= width) return;
  buf[threadIdx.x] = src[y * width + x];
  __syncthreads();
  suffix_max(buf, acc, n, threadIdx.x);
  dst[y * width + x] = acc[threadIdx.x];
}

int main() {
  const int nt = 16 * 19 + 5;  // (the last block is partly out of range)
  float src[NS * 2], w[NS];
  float *tgt = (float *)malloc(nt * 2 * sizeof(float)), *out = (float *)malloc(nt * sizeof(float));
  srand(3);
  for (int i = 0; i < NS * 2; i++) src[i] = rand() / (float)RAND_MAX;
  for (int i = 0; i < NS; i++) w[i] = rand() / (float)RAND_MAX;
  for (int i = 0; i < nt * 2; i++) tgt[i] = rand() / (float)RAND_MAX;
  CHECK_CUDA(cudaHostRegister(tgt, nt * 2 * sizeof(float), cudaHostRegisterMapped));
  CHECK_CUDA(cudaHostRegister(out, nt * sizeof(float), cudaHostRegisterMapped));
  float *d_tgt, *d_out, *d_src, *d_w;
  CHECK_CUDA(cudaHostGetDevicePointer((void **)&d_tgt, tgt, 0));
  CHECK_CUDA(cudaHostGetDevicePointer((void **)&d_out, out, 0));
  CHECK_CUDA(cudaMalloc(&d_src, sizeof src));
  CHECK_CUDA(cudaMalloc(&d_w, sizeof w));
  CHECK_CUDA(cudaMemcpy(d_src, src, sizeof src, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_w, w, sizeof w, cudaMemcpyHostToDevice));
  kernel_sum<<<(nt + TX - 1) / TX, dim3(TX, 32)>>>(nt, d_src, d_tgt, d_w, d_out);
  CHECK_CUDA(cudaDeviceSynchronize());
  bool ok = true;
  for (int p = 0; p < nt && ok; p++) {
    float r = 0.f;
    for (int s = 0; s < NS; s++) {
      float dx = tgt[p * 2] - src[s * 2], dy = tgt[p * 2 + 1] - src[s * 2 + 1];
      r += expf(-(dx * dx + dy * dy)) * w[s];
    }
    if (fabsf(r - out[p]) > 1e-4f) {
      printf("target %d: %f vs %f\n", p, out[p], r);
      ok = false;
    }
  }
  CHECK_CUDA(cudaHostUnregister(tgt));
  CHECK_CUDA(cudaHostUnregister(out));

  int h[64 * 6], *d;
  for (int i = 0; i < 64 * 6; i++) h[i] = i;
  CHECK_CUDA(cudaMalloc(&d, sizeof h));
  CHECK_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  reverse_even_blocks<<<6, 64>>>(d);
  CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64 * 6; i++) {
    int b = i / 64, t = i % 64;
    ok &= h[i] == (b % 2 ? i : b * 64 + 63 - t);
  }

  // (the last block of each row is partly out of range: its threads past the width return)
  const int width = 100, rows = 3, win = 16;
  unsigned char img[width * rows], res[width * rows], *d_img, *d_res;
  for (int i = 0; i < width * rows; i++) img[i] = (unsigned char)(rand() % 256);
  CHECK_CUDA(cudaMalloc(&d_img, sizeof img));
  CHECK_CUDA(cudaMalloc(&d_res, sizeof res));
  CHECK_CUDA(cudaMemcpy(d_img, img, sizeof img, cudaMemcpyHostToDevice));
  window_max<<<dim3((width + win - 1) / win, rows), win, 2 * win>>>(d_res, d_img, width, win);
  CHECK_CUDA(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < width; x++) {
      int end = std::min((x / win + 1) * win, width), m = 0;
      for (int k = x; k < end; k++) m = std::max(m, (int)img[y * width + k]);
      ok &= res[y * width + x] == m;
    }
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(tgt); free(out);
  return ok ? 0 : 1;
}
