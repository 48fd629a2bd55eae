// A warp exchange helper in cub's style: the class keeps a reference to its shared-memory storage (a reference
// member, initialized by the constructor). Checked against the transposition it computes.
#include <cstdio>
#include <cuda.h>

template <class T, int ITEMS, int LANES> class WarpTranspose {
 public:
  struct Storage { T buf[ITEMS * LANES]; };
  __device__ WarpTranspose(Storage &s) : store_(s) {}
  __device__ void to_striped(T (&v)[ITEMS]) {
    const int lane = threadIdx.x % LANES;
    for (int j = 0; j < ITEMS; j++) store_.buf[lane * ITEMS + j] = v[j];
    __syncwarp();
    for (int j = 0; j < ITEMS; j++) v[j] = store_.buf[j * LANES + lane];
    __syncwarp();
  }
 private:
  Storage &store_;
};

__global__ void stripe(const int *in, int *out) {
  typedef WarpTranspose<int, 4, 32> Tr;
  __shared__ typename Tr::Storage st[2];
  int v[4];
  for (int j = 0; j < 4; j++) v[j] = in[threadIdx.x * 4 + j];
  Tr(st[threadIdx.x / 32]).to_striped(v);
  for (int j = 0; j < 4; j++) out[threadIdx.x * 4 + j] = v[j];
}

int main() {
  int h[256], *d_in, *d_out;
  for (int i = 0; i < 256; i++) h[i] = i;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof h);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  stripe<<<1, 64>>>(d_in, d_out);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;  // warp w, lane l: v[j] = in[(w * 32 + (j * 32 + l) / 4) * 4 + (j * 32 + l) % 4]
  for (int t = 0; t < 64; t++)
    for (int j = 0; j < 4; j++) {
      int w = t / 32, l = t % 32, k = j * 32 + l;
      if (h[t * 4 + j] != (w * 32 + k / 4) * 4 + k % 4) bad++;
    }
  printf("%d %d\n%s\n", h[1], h[4], bad ? "FAIL" : "PASS");
  return 0;
}
