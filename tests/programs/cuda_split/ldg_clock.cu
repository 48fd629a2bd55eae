// __ldg on scalars and vector types, clock64()/clock() in device code.
#include <cstdio>
__global__ void k(const float *__restrict__ x, const float4 *__restrict__ x4, float *y, long long *t) {
  int i = threadIdx.x;
  long long c0 = clock64();
  clock_t c1 = clock();
  float4 v = __ldg(&x4[i % 8]);
  y[i] = __ldg(&x[i]) * 2 + __ldg(x + 1) + v.x + v.w;
  if (i == 0) t[0] = clock64() >= c0 && clock() >= c1;
}
int main() {
  float h[32], h4[32];
  for (int i = 0; i < 32; i++) h[i] = i, h4[i] = 100 + i;
  float *x, *y; float4 *x4; long long *t;
  cudaMalloc(&x, 128); cudaMalloc(&x4, 128); cudaMalloc(&y, 128); cudaMalloc(&t, 8);
  cudaMemcpy(x, h, 128, cudaMemcpyHostToDevice);
  cudaMemcpy(x4, h4, 128, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(x, x4, y, t);
  long long ht;
  cudaMemcpy(h, y, 128, cudaMemcpyDeviceToHost);
  cudaMemcpy(&ht, t, 8, cudaMemcpyDeviceToHost);
  bool ok = ht == 1;
  for (int i = 0; i < 32; i++) ok = ok && h[i] == i * 2 + 1 + (100 + 4 * (i % 8)) + (103 + 4 * (i % 8));
  printf("%g %g\n%s\n", h[0], h[31], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
