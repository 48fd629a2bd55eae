// A templated block reduction over dynamic shared memory reinterpreted per type (`extern __shared__ unsigned
// char smem[]` cast to T*), launched for float, double, int and a float2 functor with the byte count computed
// from sizeof(T); cudaFuncSetAttribute and a `__restrict__` input, CUDA's min overloads, lambdas in host code.
#include <cstdio>
#include <functional>
#include <random>
#include <vector>
#include "check.h"

template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } static __device__ T id() { return T(0); } };
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } static __device__ T id() { return T(-1e30); } };

template <typename T, typename Op>
__global__ void block_reduce(const T *__restrict__ in, int n, T *out) {
  extern __shared__ unsigned char smem[];
  T *s = reinterpret_cast<T *>(smem);
  Op op;
  T acc = Op::id();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc = op(acc, in[i]);
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T, typename Op, typename HostOp>
bool check(const std::vector<T> &h, int threads, HostOp host_op, T init, double tol) {
  const int n = (int)h.size(), blocks = min(32, (n + threads - 1) / threads);
  T *d_in, *d_out;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&d_out, blocks * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaFuncSetAttribute(block_reduce<T, Op>, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));
  block_reduce<T, Op><<<blocks, threads, threads * sizeof(T)>>>(d_in, n, d_out);
  CHECK_CUDA(cudaGetLastError());
  std::vector<T> part(blocks);
  CHECK_CUDA(cudaMemcpy(part.data(), d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_out));
  T got = init, want = init;
  for (T v : part) got = host_op(got, v);
  for (T v : h) want = host_op(want, v);
  bool ok = std::fabs((double)got - (double)want) <= tol * (1 + std::fabs((double)want));
  printf("%-8s threads %4d: %.6f vs %.6f\n", typeid(T).name(), threads, (double)got, (double)want);
  return ok;
}

int main() {
  std::mt19937 gen(1234);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<float> f(70001);
  std::vector<double> g(33333);
  std::vector<int> k(50000);
  for (auto &v : f) v = (float)d(gen);
  for (auto &v : g) v = d(gen);
  for (auto &v : k) v = (int)(d(gen) * 1000);
  auto fmax_ = [](auto a, auto b) { return a > b ? a : b; };
  bool ok = true;
  for (int threads : {64, 256, 1024}) {
    ok &= check<float, Plus<float>>(f, threads, std::plus<float>(), 0.f, 1e-3);
    ok &= check<double, Plus<double>>(g, threads, std::plus<double>(), 0.0, 1e-9);
    ok &= check<int, Plus<int>>(k, threads, std::plus<int>(), 0, 0);
    ok &= check<float, Max<float>>(f, threads, fmax_, -1e30f, 0);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
