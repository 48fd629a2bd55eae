// Atomics on every type real programs use: a float max built from atomicCAS on __float_as_int, double and
// unsigned long long atomicAdd, atomicMin/atomicMax/atomicAnd/atomicOr/atomicXor on int and unsigned,
// atomicExch, atomicSub; a CPU reference for each.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

__device__ float atomic_max_float(float *addr, float v) {
  int *p = reinterpret_cast<int *>(addr);
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(p, assumed, __float_as_int(v));
  } while (assumed != old);
  return __int_as_float(old);
}

struct Stats {
  float max_f;
  double sum_d;
  unsigned long long sum_u64;
  int min_i, max_i;
  unsigned and_u, or_u, xor_u;
  int last, down;
};

__global__ void gather_stats(const float *x, const int *k, int n, Stats *st) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomic_max_float(&st->max_f, x[i]);
  atomicAdd(&st->sum_d, (double)x[i]);
  atomicAdd(&st->sum_u64, (unsigned long long)k[i] * 1000003ull);
  atomicMin(&st->min_i, k[i]);
  atomicMax(&st->max_i, k[i]);
  atomicAnd(&st->and_u, ~(1u << (k[i] & 31)));
  atomicOr(&st->or_u, 1u << ((unsigned)k[i] % 17));
  atomicXor(&st->xor_u, (unsigned)k[i]);
  if (i == n - 1) atomicExch(&st->last, k[i]);
  atomicSub(&st->down, 1);
}

int main() {
  const int n = 50000;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> fd(-10.f, 10.f);
  std::uniform_int_distribution<int> id(-1000000, 1000000);
  std::vector<float> x(n);
  std::vector<int> k(n);
  for (int i = 0; i < n; i++) { x[i] = fd(gen); k[i] = id(gen); }
  Stats init{-INFINITY, 0.0, 0ull, INT_MAX, INT_MIN, 0xffffffffu, 0u, 0u, -1, n};
  float *dx; int *dk; Stats *ds;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dk, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ds, sizeof(Stats)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dk, k.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(ds, &init, sizeof(Stats), cudaMemcpyHostToDevice));
  gather_stats<<<(n + 127) / 128, 128>>>(dx, dk, n, ds);
  Stats g;
  CHECK_CUDA(cudaMemcpy(&g, ds, sizeof(Stats), cudaMemcpyDeviceToHost));
  Stats w = init;
  for (int i = 0; i < n; i++) {
    w.max_f = std::max(w.max_f, x[i]);
    w.sum_d += x[i];
    w.sum_u64 += (unsigned long long)k[i] * 1000003ull;
    w.min_i = std::min(w.min_i, k[i]);
    w.max_i = std::max(w.max_i, k[i]);
    w.and_u &= ~(1u << (k[i] & 31));
    w.or_u |= 1u << ((unsigned)k[i] % 17);
    w.xor_u ^= (unsigned)k[i];
    w.down -= 1;
  }
  w.last = k[n - 1];
  bool ok = g.max_f == w.max_f && std::fabs(g.sum_d - w.sum_d) < 1e-6 && g.sum_u64 == w.sum_u64 &&
            g.min_i == w.min_i && g.max_i == w.max_i && g.and_u == w.and_u && g.or_u == w.or_u &&
            g.xor_u == w.xor_u && g.last == w.last && g.down == 0;
  printf("max %.4f sum %.4f min %d max %d\n%s\n", g.max_f, g.sum_d, g.min_i, g.max_i, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
