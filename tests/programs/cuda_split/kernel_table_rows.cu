// Kernels chosen at run time through a table of kernel pointers (a launch through a pointer variable), a
// program header whose host functions use std::vector, and a block reduction written for lockstep warps:
// the threads of the first warp write their column sums to shared memory inside an `if`, and thread 0
// reads all of them right after it, with no barrier between (the warp reconverged after the `if`).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "row_utils.h"

#define ROWS 12
#define THREADS 64

__global__ void row_prefix(const float *in, float *out, int nblocks) {
  extern __shared__ float cols[];  // ROWS values per thread
  int t = threadIdx.x, b = blockIdx.x;
  for (int r = 0; r < ROWS; r++) cols[t * ROWS + r] = in[(size_t)b * ROWS * blockDim.x + t * ROWS + r];
  __syncthreads();
  if (t < ROWS) {  // lanes 0..ROWS-1 of warp 0: one column each
    float s = 0.0f;
    for (int i = t; i < blockDim.x * ROWS; i += ROWS) s += cols[i];
    cols[t] = s;
  }
  if (t == 0) {  // reads the other lanes' sums: they wrote them before the warp reconverged
    float acc = 0.0f;
    for (int r = 0; r < ROWS; r++) {
      acc += cols[r];
      out[b * ROWS + r] = acc;
    }
  }
}

__global__ void scale_rows(const float *in, float *out, int nblocks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nblocks * ROWS) out[i] = 3.0f * in[i];
}

__global__ void shift_rows(const float *in, float *out, int nblocks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nblocks * ROWS) out[i] = in[i] - 1.5f;
}

typedef void (*row_kernel)(const float *, float *, int);

int main() {
  const int nblocks = 37;
  std::vector<float> in((size_t)nblocks * ROWS * THREADS), out(nblocks * ROWS);
  fill_rows(in, 5);
  float *d_in, *d_out;
  cudaMalloc(&d_in, in.size() * sizeof(float));
  cudaMalloc(&d_out, out.size() * sizeof(float));
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);

  row_kernel table[] = {row_prefix, &scale_rows, shift_rows};
  const char *names[] = {"row_prefix", "scale_rows", "shift_rows"};
  int bad = 0;
  for (int k = 0; k < 3; k++) {
    row_kernel kernel = table[k];
    kernel<<<nblocks, THREADS, ROWS * THREADS * sizeof(float)>>>(d_in, d_out, nblocks);
    cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < nblocks; b++) {
      std::vector<float> want = row_prefix_cpu(in, ROWS, THREADS, b);
      for (int r = 0; r < ROWS; r++) {
        int i = b * ROWS + r;
        float w = kernel == row_prefix ? want[r] : kernel == scale_rows ? 3.0f * in[i] : in[i] - 1.5f;
        if (std::fabs(out[i] - w) > 1e-3f) {
          if (bad++ < 5) printf("%s: block %d row %d: %f, expected %f\n", names[k], b, r, out[i], w);
        }
      }
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
