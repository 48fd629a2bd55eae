/* Warp intrinsics (shuffle reduction, broadcast, xor/up shuffles, ballot/any/all); checked by tests/test_cuda_warp.py. */
#include <stdio.h>
__global__ void k(const float *in, float *out, int *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = warpSize / 2; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffff, v, off);
  float b = __shfl_sync(0xffffffff, v, 0);
  float x = __shfl_xor_sync(0xffffffff, (float)threadIdx.x, 1);
  float u = __shfl_up_sync(0xffffffff, (float)threadIdx.x, 3);
  unsigned bal = __ballot_sync(0xffffffff, threadIdx.x % 3 == 0);
  int any = __any_sync(0xffffffff, threadIdx.x == 5), all = __all_sync(0xffffffff, threadIdx.x < 64);
  if (i < n) { out[3 * i] = b; out[3 * i + 1] = x; out[3 * i + 2] = u; }
  if (i < n && threadIdx.x % 32 == 0) { votes[3 * (i / 32)] = (int)bal; votes[3 * (i / 32) + 1] = any; votes[3 * (i / 32) + 2] = all; }
}
int main() {
  int n = 128; float h[128], o[384]; int vt[12];
  for (int i = 0; i < n; i++) h[i] = (float)(i % 11);
  float *di, *dout; int *dv;
  cudaMalloc((void**)&di, 512); cudaMalloc((void**)&dout, 384*4); cudaMalloc((void**)&dv, 48);
  cudaMemcpy(di, h, 512, cudaMemcpyHostToDevice);
  k<<<2, 64>>>(di, dout, dv, n);
  cudaMemcpy(o, dout, 384*4, cudaMemcpyDeviceToHost); cudaMemcpy(vt, dv, 48, cudaMemcpyDeviceToHost);
  for (int w = 0; w < 4; w++) printf("warp %d sum %.0f x %.0f %.0f u %.0f %.0f bal %x any %d all %d\n", w, o[3*32*w], o[3*32*w+1], o[3*(32*w+6)+1], o[3*(32*w)+2], o[3*(32*w+7)+2], vt[3*w], vt[3*w+1], vt[3*w+2]);
  return 0;
}
