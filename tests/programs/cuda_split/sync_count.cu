// __syncthreads_count / _and / _or: block-wide barriers that count a predicate over the block.
#include <cstdio>
#include <vector>

__global__ void census(const int *v, int *counts, int *alls, int *anys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int positive = i < n && v[i] > 0;
  int c = __syncthreads_count(positive);
  int a = __syncthreads_and(i < n);
  int o = __syncthreads_or(i < n && v[i] > 90);
  if (threadIdx.x == 0) { counts[blockIdx.x] = c; alls[blockIdx.x] = a; anys[blockIdx.x] = o; }
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> v(n);
  for (int i = 0; i < n; i++) v[i] = (i * 37) % 101 - 40;
  int *dv, *dc, *da, *dany;
  cudaMalloc(&dv, n * sizeof(int));
  cudaMalloc(&dc, blocks * sizeof(int)); cudaMalloc(&da, blocks * sizeof(int)); cudaMalloc(&dany, blocks * sizeof(int));
  cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  census<<<blocks, threads>>>(dv, dc, da, dany, n);
  std::vector<int> c(blocks), a(blocks), o(blocks);
  cudaMemcpy(c.data(), dc, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), da, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(o.data(), dany, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; b++) {
    int want = 0, all = 1, any = 0;
    for (int t = 0; t < threads; t++) {
      int i = b * threads + t;
      want += i < n && v[i] > 0;
      all = all && i < n;
      any = any || (i < n && v[i] > 90);
    }
    ok = ok && c[b] == want && (a[b] != 0) == all && (o[b] != 0) == any;
  }
  printf("%d %d %d\n%s\n", c[0], a[blocks - 1], o[0], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
