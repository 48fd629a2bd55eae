// Kernels and a launching host template defined in a header in a subdirectory (which includes a header of
// the parent directory): the header's host text has the kernel bodies removed and the launch rewritten.
#include <cstdio>
#include <random>
#include <vector>
#include "ops/scale_ops.h"

int main() {
  const int n = 10000;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(0.f, 10.f);
  std::vector<float> in(n), got(n);
  std::vector<int> ints(n), sums(n);
  for (int i = 0; i < n; i++) {
    in[i] = dist(gen);
    ints[i] = (int)gen() % 1000;
  }
  float *d_in, *d_out;
  int *d_ints, *d_sums;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_ints, n * sizeof(int));
  cudaMalloc(&d_sums, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ints, ints.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  double time = run_shift_blend(d_in, d_out, n, 3, 0.25f);
  prefix_pairs<<<(n + 255) / 256, 256>>>(d_ints, d_sums, n);
  cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), d_sums, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    int j = i + 3 < n ? i + 3 : n - 1;
    ok = ok && got[i] == blend(in[i], in[j], 0.25f) && sums[i] == ints[i] + (i > 0 ? ints[i - 1] : 0);
  }
  fprintf(stderr, "time %f s\n", time);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_ints);
  cudaFree(d_sums);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
