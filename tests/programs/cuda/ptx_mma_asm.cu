// A tensor-core style kernel whose multiply is inline PTX: device code runs on the CPU under --cpuify, so the PTX
// instruction is a clear error at the asm statement.
#include <cstdio>

__device__ float fma_ptx(float a, float b, float c)
{
  float d;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
  return d;
}

__global__ void axpy(float *y, const float *x, float alpha, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fma_ptx(alpha, x[i], y[i]);
}

int main()
{
  float *x, *y;
  cudaMalloc(&x, 1024);
  cudaMalloc(&y, 1024);
  axpy<<<1, 256>>>(y, x, 2.0f, 256);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
