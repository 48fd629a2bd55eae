// 1-D stencil with weights in constant memory, a block-shared halo in dynamic shared memory, a device counter,
// event timing and a host class holding the buffers.
#include <vector>
#include <numeric>
#include <cstring>
#include "check.h"

#define RADIUS 3
__constant__ float weights[2 * RADIUS + 1];
__device__ unsigned int blocks_done;

__global__ void stencil(const float *in, float *out, int n) {
  extern __shared__ float halo[];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  halo[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < RADIUS) {
    halo[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.f;
    int r = g + blockDim.x;
    halo[l + blockDim.x] = r < n ? in[r] : 0.f;
  }
  __syncthreads();
  if (g < n) {
    float s = 0;
    for (int k = -RADIUS; k <= RADIUS; k++) s += weights[k + RADIUS] * halo[l + k];
    out[g] = s;
  }
  if (threadIdx.x == 0) atomicAdd(&blocks_done, 1u);
}

class Buffers {
 public:
  explicit Buffers(int n) : n_(n), host_in(n), host_out(n) {
    CHECK_CUDA(cudaMalloc(&dev_in, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dev_out, n * sizeof(float)));
  }
  ~Buffers() { cudaFree(dev_in); cudaFree(dev_out); }
  int n_;
  std::vector<float> host_in, host_out;
  float *dev_in = nullptr, *dev_out = nullptr;
};

int main() {
  const int n = 5000, threads = 128;
  Buffers b(n);
  for (int i = 0; i < n; i++) b.host_in[i] = (float)((i * 37) % 101) / 10.f;
  float w[2 * RADIUS + 1];
  for (int k = 0; k <= 2 * RADIUS; k++) w[k] = 1.f / (1 + std::abs(k - RADIUS));
  CHECK_CUDA(cudaMemcpyToSymbol(weights, w, sizeof(w)));
  unsigned int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(blocks_done, &zero, sizeof(zero)));
  CHECK_CUDA(cudaMemcpy(b.dev_in, b.host_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  int blocks = (n + threads - 1) / threads;
  stencil<<<blocks, threads, (threads + 2 * RADIUS) * sizeof(float)>>>(b.dev_in, b.dev_out, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(b.host_out.data(), b.dev_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned int done = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&done, blocks_done, sizeof(done)));
  std::vector<float> ref(n);
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int k = -RADIUS; k <= RADIUS; k++) {
      int j = i + k;
      s += w[k + RADIUS] * (j >= 0 && j < n ? b.host_in[j] : 0.f);
    }
    ref[i] = s;
  }
  bool ok = close_enough(b.host_out.data(), ref.data(), n, 1e-5) && done == (unsigned)blocks && ms >= 0;
  printf("blocks %u sum %.3f\n", done, std::accumulate(b.host_out.begin(), b.host_out.end(), 0.0));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
