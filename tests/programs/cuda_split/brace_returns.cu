// C++ brace-initialized returns of a struct (`return {x, y, z};`) in device and host-device code.
#include <cstdio>
struct V { float x, y, z; __host__ __device__ V operator+(const V &o) const { return {x + o.x, y + o.y, z + o.z}; } };
__device__ V mk(float a) { return {a, 2 * a, 3 * a}; }
__global__ void k(V *out) { out[threadIdx.x] = mk(threadIdx.x) + mk(1); }
int main() { V *d; cudaMalloc(&d, 4 * sizeof(V)); k<<<1, 4>>>(d); V h[4]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); bool ok = h[3].x == 4 && h[3].y == 8 && h[3].z == 12;
  printf("%g %g %g\n%s\n", h[3].x, h[3].y, h[3].z, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
