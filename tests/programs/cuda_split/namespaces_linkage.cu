// Kernels and device variables in namespaces (static ones too), an extern "C" kernel, a static kernel, a launch
// from a static member function, __constant__ data with an initializer, cudaMemcpyTo/FromSymbol on a namespaced variable.
#include <cstdio>
namespace app {
__constant__ float coeff[2] = {2.f, 3.f};
}
static __device__ float bias = 1.f;
namespace app {
static __device__ int counter;
struct Params { float scale; int n; };
__global__ void scale(float *x, Params p) { int i = threadIdx.x; if (i < p.n) { x[i] = x[i] * p.scale * coeff[0]; atomicAdd(&counter, 1); } }
}
extern "C" __global__ void cadd(float *x, float v) { x[threadIdx.x] += v + bias - 1.f; }
static __global__ void twice(float *x) { x[threadIdx.x] *= 2; }
#define LAUNCH(k, ...) k<<<1, 32>>>(__VA_ARGS__)
class Runner {
 public:
  static void run(float *d) { app::Params p{0.5f, 32}; app::scale<<<1, 32>>>(d, p); }
};
int main() {
  float h[32]; for (int i = 0; i < 32; i++) h[i] = i;
  float *d; cudaMalloc(&d, sizeof h); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  int zero = 0; cudaMemcpyToSymbol(app::counter, &zero, sizeof zero);
  Runner::run(d);
  cadd<<<1, 32>>>(d, 1.f);
  twice<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int c = 0; cudaMemcpyFromSymbol(&c, app::counter, sizeof c);
  bool ok = h[5] == (5 * 0.5f * 2 + 1) * 2 && c == 32;
  printf("%g %d\n%s\n", h[5], c, ok ? "PASS" : "FAIL");
  return !ok;
}
