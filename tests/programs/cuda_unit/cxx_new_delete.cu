#include <cstdio>
#include <cmath>
__global__ void scale(float *a, int n, float s) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= s; }
int main() {
  int n = 100;
  float *h = new float[n];
  for (int i = 0; i < n; i++) h[i] = static_cast<float>(i);
  float *d;
  cudaMalloc((void **)&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<4, 32>>>(d, n, 2.0f);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  double *acc = new double(0.5);
  long *cnt = new long;
  *cnt = 0;
  for (int i = 0; i < n; i++) { *acc += h[i]; *cnt += 1; }
  bool ok = std::fabs(*acc - 9900.5) < 1e-9;
  printf("%.1f %ld %d %.3f\n", *acc, *cnt, ok, std::sqrt(h[8]));
  delete acc;
  delete cnt;
  delete[] h;
  cudaFree(d);
  return ok ? 0 : 1;
}
