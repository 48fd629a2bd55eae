// The other file of static_norms.cu: a kernel `accumulate`, a `__device__` function `term` and a `__device__`
// variable `weight` of its own in an anonymous namespace, which must not be confused with static_norms.cu's.
#include <random>
#include <vector>
#include "check.h"

float twice_sum_of_squares(const std::vector<float> &x);

namespace {  // internal linkage as `static` gives it
__device__ float weight = 0.5f;
__device__ float term(float v) { return weight * fabsf(v); }

__global__ void accumulate(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, term(x[i]));
}
}  // namespace

int main() {
  const int n = 1000;
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> dist(-8, 8);  // small integers: float sums are exact in any order
  std::vector<float> x(n);
  for (auto &v : x) v = (float)dist(gen);
  float *d, *out, half_l1 = 0;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(out, 0, sizeof(float)));
  accumulate<<<(n + 255) / 256, 256>>>(d, out, n);
  CHECK_CUDA(cudaMemcpy(&half_l1, out, sizeof(float), cudaMemcpyDeviceToHost));
  float sq2 = twice_sum_of_squares(x);
  double want_l1 = 0, want_sq = 0;
  for (float v : x) { want_l1 += 0.5 * std::fabs(v); want_sq += 2.0 * v * v; }
  bool ok = half_l1 == (float)want_l1 && sq2 == (float)want_sq;
  printf("%g %g\n%s\n", half_l1, sq2, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
