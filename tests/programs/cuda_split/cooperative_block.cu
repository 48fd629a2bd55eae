// Cooperative groups' thread_block: thread_rank, size, sync, group_index, and this_grid().thread_rank().
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void sum(const int *x, int *out) {
  __shared__ int s[128];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_rank();
  s[t] = x[cg::this_grid().thread_rank()];
  block.sync();
  for (unsigned k = block.size() / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    cg::sync(block);
  }
  if (t == 0) out[block.group_index().x] = s[0];
}
int main() {
  int h[512], r[4]; for (int i = 0; i < 512; i++) h[i] = i;
  int *x, *o; cudaMalloc(&x, sizeof h); cudaMalloc(&o, sizeof r);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<4, 128>>>(x, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < 4; b++) { int w = 0; for (int i = 0; i < 128; i++) w += h[b * 128 + i]; ok = ok && r[b] == w; }
  printf("%d %d\n%s\n", r[0], r[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
