/* Every CUDA atomic the CPU translation supports, on a 1-D grid; results are checked by tests/test_cuda_atomics.py. */
#include <stdio.h>
#include <stdlib.h>
__global__ void hist(const int *in, unsigned *bins, int n, float *fsum, int *mx, unsigned *ctr, int *cas) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[in[i] % 10], 1u);
    atomicAdd(fsum, 0.5f);
    atomicMax(mx, in[i]);
    atomicInc(ctr, 7u);
    atomicCAS(cas, 0, i + 1);
    atomicSub(&mx[1], 2);
  }
}
int main() {
  int n = 1000; int *in = (int*)malloc(n*4); for (int i = 0; i < n; i++) in[i] = (i * 7919) % 1013;
  int *din; unsigned *db; float *df; int *dm; unsigned *dc; int *dcas;
  cudaMalloc((void**)&din, n*4); cudaMalloc((void**)&db, 40); cudaMalloc((void**)&df, 4); cudaMalloc((void**)&dm, 8); cudaMalloc((void**)&dc, 4); cudaMalloc((void**)&dcas, 4);
  cudaMemcpy(din, in, n*4, cudaMemcpyHostToDevice); cudaMemset(db, 0, 40); cudaMemset(df, 0, 4); cudaMemset(dm, 0, 8); cudaMemset(dc, 0, 4); cudaMemset(dcas, 0, 4);
  hist<<<(n+127)/128, 128>>>(din, db, n, df, dm, dc, dcas);
  unsigned b[10]; float f; int m[2]; unsigned c; int cs;
  cudaMemcpy(b, db, 40, cudaMemcpyDeviceToHost); cudaMemcpy(&f, df, 4, cudaMemcpyDeviceToHost); cudaMemcpy(m, dm, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&c, dc, 4, cudaMemcpyDeviceToHost); cudaMemcpy(&cs, dcas, 4, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 10; k++) printf("%u ", b[k]); printf("| %.1f %d %d %u %d\n", f, m[0], m[1], c, cs != 0);
  return 0;
}
