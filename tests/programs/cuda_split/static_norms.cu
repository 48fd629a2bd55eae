// One of two separately compiled files with `static` kernels, device functions and device variables of the
// same names (static_main.cu has the others): nvcc gives them internal linkage, so each file calls its own.
#include <vector>
#include "check.h"

static __device__ float weight = 2.0f;
static __device__ float term(float v) { return weight * v * v; }

static __global__ void accumulate(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, term(x[i]));
}

// 2 * sum of squares of x, computed on the device
float twice_sum_of_squares(const std::vector<float> &x) {
  float *d, *out, got = 0;
  int n = (int)x.size();
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(out, 0, sizeof(float)));
  accumulate<<<(n + 127) / 128, 128>>>(d, out, n);
  CHECK_CUDA(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(out));
  return got;
}
