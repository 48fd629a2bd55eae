// The SC'21 paper's form in float: a __device__ function copies x into __shared__ memory, synchronizes, and each
// thread multiplies its element by its neighbour's (a modulo index, so shadow updates are atomic).
// d x[i] = x[i+1] + x[i-1] (indices modulo 32).
#include <cstdio>
#include <cmath>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ void inner(float *x, float *y) {
  __shared__ float tmp[32];
  tmp[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = tmp[threadIdx.x] * tmp[(threadIdx.x + 1) % 32];
}
__global__ void grad(float *x, float *dx, float *y, float *dy) {
  __enzyme_autodiff((void *)inner, x, dx, y, dy);
}
int main() {
  float hx[32], hdx[32], hdy[32];
  for (int i = 0; i < 32; i++) { hx[i] = 0.1f * i + 1; hdx[i] = 0; hdy[i] = 1; }
  float *x, *dx, *y, *dy;
  cudaMalloc(&x, sizeof hx); cudaMalloc(&dx, sizeof hx); cudaMalloc(&y, sizeof hx); cudaMalloc(&dy, sizeof hx);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice); cudaMemcpy(dx, hdx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hdy, sizeof hx, cudaMemcpyHostToDevice);
  grad<<<1, 32>>>(x, dx, y, dy);
  cudaMemcpy(hdx, dx, sizeof hx, cudaMemcpyDeviceToHost);
  float worst = 0;
  for (int i = 0; i < 32; i++) {
    float want = hx[(i + 1) % 32] + hx[(i + 31) % 32];  // d y[i]/dx[i] + d y[i-1]/dx[i]
    worst = fmaxf(worst, fabsf(hdx[i] - want));
  }
  printf("dx[0] = %f, max error %g\n%s\n", hdx[0], worst, worst < 1e-5f ? "PASS" : "FAIL");
  return worst < 1e-5f ? 0 : 1;
}
