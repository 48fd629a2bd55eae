// A 2-D kernel that returns early when its pixel lies outside the image in either direction
// (`if (x >= w || y >= h) return;`) and then stages tiles of a point list in shared memory, with __syncthreads()
// in the loop over tiles: the threads that returned no longer hold the block's barriers back, as on a GPU. The
// image sizes are not multiples of the block's, so edge blocks have returned threads. Each pixel gets the
// squared distance to its nearest point, compared with a host computation.
#include <cstdio>
#include <vector>
#include "check.h"

#define TILE 64

__global__ void nearest(const float2 *pts, int n, int w, int h, float *dist)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  __shared__ float2 tile[TILE];
  float best = 1e30f;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  for (int base = 0; base < n; base += TILE) {
    // (the block's first thread never returns: it stages the whole tile)
    if (t == 0)
      for (int k = 0; k < TILE && base + k < n; k++) tile[k] = pts[base + k];
    __syncthreads();
    const int count = min(TILE, n - base);
    for (int i = 0; i < count; i++) {
      const float dx = tile[i].x - x, dy = tile[i].y - y;
      best = fminf(best, dx * dx + dy * dy);
    }
    __syncthreads();
  }
  dist[y * w + x] = best;
}

int main()
{
  const int w = 75, h = 37, n = 150;
  std::vector<float2> pts(n);
  for (int i = 0; i < n; i++) pts[i] = make_float2((float)((i * 37) % 101) * 0.8f, (float)((i * 53) % 89) * 0.45f);
  float2 *dp;
  float *dd;
  CHECK_CUDA(cudaMalloc(&dp, n * sizeof(float2)));
  CHECK_CUDA(cudaMalloc(&dd, w * h * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dp, pts.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  nearest<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(dp, n, w, h, dd);
  std::vector<float> got(w * h), want(w * h);
  CHECK_CUDA(cudaMemcpy(got.data(), dd, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float best = 1e30f;
      for (int i = 0; i < n; i++) {
        const float dx = pts[i].x - x, dy = pts[i].y - y;
        best = fminf(best, dx * dx + dy * dy);
      }
      want[y * w + x] = best;
    }
  bool ok = close_enough(got.data(), want.data(), w * h, 1e-6);
  printf("corner: %.4f (want %.4f)\n", got[w * h - 1], want[w * h - 1]);
  cudaFree(dp); cudaFree(dd);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
