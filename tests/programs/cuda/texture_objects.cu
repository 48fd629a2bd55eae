// Texture objects as image-processing benchmarks use them: a 1-D texture over linear memory read with
// tex1Dfetch, a 2-D CUDA array (cudaMallocArray, cudaMemcpy2DToArray) sampled with tex2D at point and with
// bilinear filtering and normalized coordinates, clamp and border addressing, and a pitched 2-D allocation
// (cudaMallocPitch) bound as cudaResourceTypePitch2D; CPU references with the same sampling rules.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include "check.h"

__global__ void gather(cudaTextureObject_t t, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, idx[i]) * 2.f;
}

__global__ void resample(cudaTextureObject_t t, float *out, int w, int h, float sx, float sy, bool normalized) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) * sx, v = (y + 0.5f) * sy;
  if (normalized) { u /= w * sx; v /= h * sy; }
  out[y * w + x] = tex2D<float>(t, u, v);
}

static float texel(const std::vector<float> &img, int W, int H, int i, int j, bool border) {
  if (border && (i < 0 || j < 0 || i >= W || j >= H)) return 0.f;
  i = std::min(std::max(i, 0), W - 1);
  j = std::min(std::max(j, 0), H - 1);
  return img[j * W + i];
}

static float sample(const std::vector<float> &img, int W, int H, float u, float v, bool linear, bool border) {
  if (!linear) return texel(img, W, H, (int)std::floor(u), (int)std::floor(v), border);
  float xb = u - 0.5f, yb = v - 0.5f;
  int i = (int)std::floor(xb), j = (int)std::floor(yb);
  float a = xb - std::floor(xb), b = yb - std::floor(yb);
  float t0 = texel(img, W, H, i, j, border), t1 = texel(img, W, H, i + 1, j, border);
  float b0 = texel(img, W, H, i, j + 1, border), b1 = texel(img, W, H, i + 1, j + 1, border);
  float top = t0 + a * (t1 - t0), bot = b0 + a * (b1 - b0);
  return top + b * (bot - top);
}

int main() {
  bool ok = true;
  // 1-D linear memory
  const int n = 1000;
  std::vector<float> lin(n);
  std::vector<int> idx(n);
  for (int i = 0; i < n; i++) { lin[i] = std::sin(0.01f * i); idx[i] = (i * 37) % (n + 10) - 5; }
  float *d_lin, *d_out;
  int *d_idx;
  CHECK_CUDA(cudaMalloc(&d_lin, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_idx, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_out, 4096 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_lin, lin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_lin;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t1 = 0;
  CHECK_CUDA(cudaCreateTextureObject(&t1, &res, &td, nullptr));
  gather<<<(n + 255) / 256, 256>>>(t1, d_idx, d_out, n);
  std::vector<float> got(4096);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ok = ok && got[i] == ((idx[i] >= 0 && idx[i] < n) ? lin[idx[i]] * 2.f : 0.f);
  CHECK_CUDA(cudaDestroyTextureObject(t1));
  printf("1-D fetch: %s\n", ok ? "ok" : "wrong");

  // 2-D: an image in a CUDA array and in pitched memory, resampled to 64 x 48
  const int W = 40, H = 30, w = 64, h = 48;
  std::vector<float> img(W * H);
  for (int j = 0; j < H; j++)
    for (int i = 0; i < W; i++) img[j * W + i] = std::cos(0.2f * i) * std::sin(0.15f * j) + 0.01f * i;
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK_CUDA(cudaMallocArray(&arr, &ch, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  float *pitched;
  size_t pitch;
  CHECK_CUDA(cudaMallocPitch((void **)&pitched, &pitch, W * sizeof(float), H));
  CHECK_CUDA(cudaMemcpy2D(pitched, pitch, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  const float sx = (float)W / w * 1.1f, sy = (float)H / h * 1.1f;  // reaches past the right and bottom edges
  for (int config = 0; config < 6; config++) {
    bool linear = config & 1, border = config & 2, normalized = config >= 4;
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    if (config % 4 < 2 || normalized) {
      r.resType = cudaResourceTypeArray;
      r.res.array.array = arr;
    } else {
      r.resType = cudaResourceTypePitch2D;
      r.res.pitch2D.devPtr = pitched;
      r.res.pitch2D.desc = ch;
      r.res.pitch2D.width = W;
      r.res.pitch2D.height = H;
      r.res.pitch2D.pitchInBytes = pitch;
    }
    cudaTextureDesc d;
    memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = border ? cudaAddressModeBorder : cudaAddressModeClamp;
    d.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    d.readMode = cudaReadModeElementType;
    d.normalizedCoords = normalized;
    cudaTextureObject_t t;
    CHECK_CUDA(cudaCreateTextureObject(&t, &r, &d, nullptr));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    resample<<<grid, block>>>(t, d_out, w, h, sx, sy, normalized);
    CHECK_CUDA(cudaMemcpy(got.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        float u = (x + 0.5f) * sx, v = (y + 0.5f) * sy;
        if (normalized) { u = u / (w * sx) * W; v = v / (h * sy) * H; }
        worst = std::max(worst, (double)std::fabs(got[y * w + x] - sample(img, W, H, u, v, linear, border)));
      }
    printf("config %d (linear %d, border %d, normalized %d): max error %.2e\n", config, linear, border, normalized, worst);
    ok = ok && worst < 1e-5;
    CHECK_CUDA(cudaDestroyTextureObject(t));
  }
  CHECK_CUDA(cudaFreeArray(arr));
  CHECK_CUDA(cudaFree(pitched));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
