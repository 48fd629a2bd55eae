// Non-virtual inheritance in device code: a base with in-class initializers and methods, a derived class with
// a base initializer, a second base (multiple inheritance: a non-zero base offset), a class template base,
// derived-to-base conversions of references and pointers (also through a null pointer), static_cast back to
// the derived class, a method hiding its base's, and a derived struct passed by value to a kernel. Checked
// against the same classes run on the host.
#include <chrono>
#include <random>
#include <vector>
#include "check.h"

struct Tagged {
  int tag = 7;
  __host__ __device__ int tagged(int v) const { return v * 100 + tag; }
};

template <typename T>
struct Point {
  T x = 0, y = 0;
  __host__ __device__ T norm1() const { return (x < 0 ? -x : x) + (y < 0 ? -y : y); }
  __host__ __device__ void shift(T d) { x += d; y -= d; }
};

struct Body : Point<float> {
  float mass;
  __host__ __device__ Body(float px, float py, float m) : Point<float>(), mass(m) { x = px; y = py; }
  __host__ __device__ float momentum() const { return mass * norm1(); }
  __host__ __device__ float norm1() const { return Point<float>::norm1() + 0.5f; }  // hides the base's
};

struct Probe : Tagged, Body {
  int hits;
  __host__ __device__ Probe(float px, float py, int h) : Body(px, py, 2.0f), hits(h) { tag = h % 5; }
  __host__ __device__ float score() const { return momentum() + tagged(hits) + x; }
};

struct Config : Tagged {
  float scale;
  int rounds;
};

__host__ __device__ float through_base(const Point<float> &p) { return p.norm1(); }
__host__ __device__ int through_tag(const Tagged *t) { return t ? t->tag : -1; }
__host__ __device__ float back_down(const Point<float> *p) { return static_cast<const Body *>(p)->mass; }

__host__ __device__ float evaluate(float a, float b, int i, Config cfg) {
  Probe p(a, b, i);
  for (int r = 0; r < cfg.rounds; r++) p.shift(cfg.scale);
  const Body &body = p;
  const Probe *none = nullptr;
  float v = p.score() + through_base(p) + through_tag(&p) + 10 * through_tag(none) + back_down(&p);
  v += body.norm1() + cfg.tagged(1);
  return v;
}

__global__ void kernel(const float *a, const float *b, float *out, int n, Config cfg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate(a[i], b[i], i, cfg);
}

int main() {
  const int n = 3000;
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> a(n), b(n), out(n), want(n);
  for (int i = 0; i < n; i++) { a[i] = dist(gen); b[i] = dist(gen); }
  Config cfg;
  cfg.tag = 3;
  cfg.scale = 0.25f;
  cfg.rounds = 3;
  for (int i = 0; i < n; i++) want[i] = evaluate(a[i], b[i], i, cfg);
  float *da, *db, *dout;
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  auto start = std::chrono::high_resolution_clock::now();
  kernel<<<(n + 255) / 256, 256>>>(da, db, dout, n, cfg);
  CHECK_CUDA(cudaDeviceSynchronize());
  auto stop = std::chrono::high_resolution_clock::now();
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("kernel: %.3f us, sizeof(Probe) %zu\n", std::chrono::duration<double, std::micro>(stop - start).count(),
         sizeof(Probe));
  bool ok = close_enough(out.data(), want.data(), n, 1e-6);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
