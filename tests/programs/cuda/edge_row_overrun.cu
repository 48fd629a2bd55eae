// A surface evaluated row by row where the guard is off by one (`if (row > rows) return;`, a bug real benchmark
// codes carry): the thread of row `rows` writes one row past the output buffer. On a GPU that row lands in the
// allocation's slack and the program checks only the rows it asked for; the host buffers allocated around it
// must survive (freeing them used to abort in the C library: munmap_chunk(): invalid pointer).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda.h>

__global__ void eval_rows(const float *coef, float *out, int rows, int cols)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row > rows) return;  // (should be >=)
  float u = row / (float)(rows - 1);
  for (int c = 0; c < cols; c++) {
    float v = c / (float)(cols - 1);
    out[row * cols + c] = coef[0] + coef[1] * u + coef[2] * v + coef[3] * u * v;
  }
}

int main()
{
  const int rows = 700, cols = 1500;
  const float coef[4] = {0.5f, -1.25f, 2.0f, 0.75f};
  float *host_a = (float *)malloc(sizeof(float) * rows * cols);  // (host buffers around the device one)
  float *host_b = (float *)malloc(sizeof(float) * rows * cols);
  float *d_coef, *d_out;
  cudaMalloc(&d_coef, sizeof coef);
  cudaMalloc(&d_out, sizeof(float) * rows * cols);
  cudaMemcpy(d_coef, coef, sizeof coef, cudaMemcpyHostToDevice);
  eval_rows<<<(rows + 127) / 128, 128>>>(d_coef, d_out, rows, cols);
  cudaMemcpy(host_b, d_out, sizeof(float) * rows * cols, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int r = 0; r < rows && ok; r++)
    for (int c = 0; c < cols; c++) {
      float u = r / (float)(rows - 1), v = c / (float)(cols - 1);
      host_a[r * cols + c] = coef[0] + coef[1] * u + coef[2] * v + coef[3] * u * v;
      if (std::fabs(host_a[r * cols + c] - host_b[r * cols + c]) > 1e-5f) { ok = false; break; }
    }
  cudaFree(d_out);
  cudaFree(d_coef);
  free(host_b);
  free(host_a);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
