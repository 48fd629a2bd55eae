// A per-thread lookup table (a local 2-D array) filled by a helper that takes it as an array parameter, in a
// 2-D kernel over a large grid: the table's address reaches the helper as a raw pointer, and each thread's table
// must still not take new stack space (it crashed at 8,192 blocks of 16x16 threads).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#define STOPS 24

__host__ __device__ void put_stop(int table[STOPS][3], int k, int r, int g, int b) {
  table[k][0] = r;
  table[k][1] = g;
  table[k][2] = b;
}

__host__ __device__ void shade(float u, float v, unsigned char *px) {
  int table[STOPS][3];
  for (int k = 0; k < STOPS; k++) put_stop(table, k, 10 * k, 255 - 7 * k, (k * 37) % 256);
  float t = (atan2f(v, u) / 3.14159265f + 1.f) * 0.5f * (STOPS - 1);
  int k0 = (int)t, k1 = (k0 + 1) % STOPS;
  float f = t - k0;
  for (int c = 0; c < 3; c++) px[c] = (unsigned char)((1.f - f) * table[k0][c] + f * table[k1][c]);
}

__global__ void paint(unsigned char *img, int w, int h, const float *jitter) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) shade(x - w / 2 + jitter[y], y - h / 2 + 0.5f, img + 3 * ((size_t)y * w + x));
}

int main() {
  const int w = 1536, h = 1360;  // 96 x 85 blocks of 16 x 16
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(0.f, 0.25f);
  std::vector<float> jitter(h);
  for (auto &j : jitter) j = dist(gen);
  std::vector<unsigned char> want(3 * (size_t)w * h), got(want.size());
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) shade(x - w / 2 + jitter[y], y - h / 2 + 0.5f, &want[3 * ((size_t)y * w + x)]);
  unsigned char *d_img;
  float *d_jitter;
  cudaMalloc(&d_img, got.size());
  cudaMalloc(&d_jitter, h * sizeof(float));
  cudaMemcpy(d_jitter, jitter.data(), h * sizeof(float), cudaMemcpyHostToDevice);
  auto start = std::chrono::steady_clock::now();
  paint<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(d_img, w, h, d_jitter);
  cudaDeviceSynchronize();
  auto time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cudaMemcpy(got.data(), d_img, got.size(), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (size_t i = 0; i < got.size(); i++) bad += got[i] != want[i];
  fprintf(stderr, "kernel time %f s\n", time);
  cudaFree(d_img);
  cudaFree(d_jitter);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad != 0;
}
