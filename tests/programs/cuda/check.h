// An error-checking macro and a verdict helper, as the CUDA samples' helper headers provide them.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK_CUDA(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));       \
      exit(EXIT_FAILURE);                                                                 \
    }                                                                                     \
  } while (0)

template <typename T>
bool close_enough(const T *got, const T *want, int n, double tol) {
  for (int i = 0; i < n; i++)
    if (std::fabs((double)got[i] - (double)want[i]) > tol * (1 + std::fabs((double)want[i]))) {
      printf("mismatch at %d: %f vs %f\n", i, (double)got[i], (double)want[i]);
      return false;
    }
  return true;
}
