// A small all-pairs force step in the style of modern CUDA benchmark programs: a Vec3<T> class template with
// operators and member functions, constexpr constants and functions, a functor struct passed by value to a
// templated kernel, and lambdas ([&], [=], explicit, mutable, generic, nested) defined and called in device code.
#include <chrono>
#include <random>
#include <vector>
#include "check.h"

template <typename T> struct Vec3 {
  T x = 0, y = 0, z = 0;
  __host__ __device__ Vec3() {}
  __host__ __device__ Vec3(T a, T b, T c) : x(a), y(b), z(c) {}
  __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  __host__ __device__ Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  __host__ __device__ Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
  __host__ __device__ T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  __host__ __device__ T &operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  __host__ __device__ static Vec3 splat(T v) { return Vec3(v, v, v); }
};
template <typename T> __host__ __device__ Vec3<T> operator*(T s, const Vec3<T> &v) { return {s * v.x, s * v.y, s * v.z}; }

constexpr int kBlock = 64;
constexpr double kSoftening = 0.01;
constexpr __host__ __device__ int wrap(int i, int n) { return (i % n + n) % n; }

template <typename T, int N> struct History {  // the last N values, a class template with a non-type parameter
  T v[N];
  __device__ void clear() { for (int i = 0; i < N; i++) v[i] = 0; }
  __device__ void push(T a) { for (int i = N - 1; i > 0; i--) v[i] = v[i - 1]; v[0] = a; }
  template <typename U> __device__ U total() const { U s = 0; for (int i = 0; i < N; i++) s += (U)v[i]; return s; }
};

template <typename T> __global__ void forces(const Vec3<T> *pos, const T *mass, Vec3<T> *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec3<T> &me = pos[i];
  Vec3<T> a;
  int interactions = 0;
  auto pull = [&](int j) {  // captures me, a, interactions, pos, mass by reference
    Vec3<T> d = pos[j] - me;
    T r2 = d.dot(d) + (T)kSoftening;
    a += (mass[j] / (r2 * sqrt(r2))) * d;
    interactions++;
  };
  for (int j = 0; j < n; j++)
    if (j != i) pull(j);
  History<T, 3> h;
  h.clear();
  for (int k = 0; k < 3; k++) h.push(a[k]);
  auto scaled = [=](T s) mutable { a += Vec3<T>::splat(s); return a; };  // a copy, changed inside only
  Vec3<T> shifted = scaled((T)0);
  auto norm1 = [](auto v) { return fabs(v.x) + fabs(v.y) + fabs(v.z); };  // a generic lambda
  auto both = [&, interactions](T f) { auto inner = [&](T g) { return g * interactions; }; return inner(f) + norm1(shifted); };
  acc[i] = Vec3<T>(h.template total<T>(), both((T)1), a.z);
}

struct Saxpy {  // a functor passed by value to a templated kernel
  float alpha;
  __device__ float operator()(float x, float y) const { return alpha * x + y; }
};
template <typename Op> __global__ void zip(const float *x, const float *y, float *out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(x[wrap(i - 1, n)], y[i]);
}

int main() {
  const int n = 300;
  std::mt19937 gen(2024);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec3<double>> pos(n), acc(n);
  std::vector<double> mass(n);
  for (int i = 0; i < n; i++) { pos[i] = Vec3<double>(u(gen), u(gen), u(gen)); mass[i] = 1.5 + u(gen); }
  Vec3<double> *dp, *da; double *dm;
  CHECK_CUDA(cudaMalloc(&dp, n * sizeof(Vec3<double>)));
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(Vec3<double>)));
  CHECK_CUDA(cudaMalloc(&dm, n * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(dp, pos.data(), n * sizeof(Vec3<double>), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dm, mass.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  auto t0 = std::chrono::steady_clock::now();
  forces<<<(n + kBlock - 1) / kBlock, kBlock>>>(dp, dm, da, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  CHECK_CUDA(cudaMemcpy(acc.data(), da, n * sizeof(Vec3<double>), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; i++) {
    Vec3<double> a;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      Vec3<double> d = pos[j] - pos[i];
      double r2 = d.dot(d) + kSoftening;
      a += (mass[j] / (r2 * std::sqrt(r2))) * d;
    }
    double norm1 = std::fabs(a.x) + std::fabs(a.y) + std::fabs(a.z);
    Vec3<double> want(a.x + a.y + a.z, 1.0 * (n - 1) + norm1, a.z);
    for (int k = 0; k < 3; k++)
      ok = ok && std::fabs(acc[i][k] - want[k]) <= 1e-9 * (1 + std::fabs(want[k]));
  }
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; i++) { x[i] = (float)u(gen); y[i] = (float)u(gen); }
  float *dx, *dy, *dz;
  CHECK_CUDA(cudaMalloc(&dx, n * 4)); CHECK_CUDA(cudaMalloc(&dy, n * 4)); CHECK_CUDA(cudaMalloc(&dz, n * 4));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice));
  zip<<<(n + 127) / 128, 128>>>(dx, dy, dz, n, Saxpy{2.5f});
  CHECK_CUDA(cudaMemcpy(out.data(), dz, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ok = ok && out[i] == 2.5f * x[wrap(i - 1, n)] + y[i];
  printf("forces: %.3f ms\n%s\n", std::chrono::duration<double, std::milli>(t1 - t0).count(), ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
