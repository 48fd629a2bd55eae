// Directed-rounding arithmetic intrinsics (_rn/_rz/_rd/_ru of add, sub, mul, div, rcp, sqrt, fma in float and
// double) checked bit for bit against the host's arithmetic under fesetround, on random operands, rounding ties,
// subnormals, overflows and signed zeros.
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define OPS 7
#define MODES 4

template <class T>
__device__ T apply_op(int op, int mode, T a, T b, T c);

template <>
__device__ float apply_op<float>(int op, int mode, float a, float b, float c) {
  switch (op * MODES + mode) {
  case 0: return __fadd_rn(a, b);  case 1: return __fadd_rz(a, b);
  case 2: return __fadd_rd(a, b);  case 3: return __fadd_ru(a, b);
  case 4: return __fsub_rn(a, b);  case 5: return __fsub_rz(a, b);
  case 6: return __fsub_rd(a, b);  case 7: return __fsub_ru(a, b);
  case 8: return __fmul_rn(a, b);  case 9: return __fmul_rz(a, b);
  case 10: return __fmul_rd(a, b); case 11: return __fmul_ru(a, b);
  case 12: return __fdiv_rn(a, b); case 13: return __fdiv_rz(a, b);
  case 14: return __fdiv_rd(a, b); case 15: return __fdiv_ru(a, b);
  case 16: return __frcp_rn(a);    case 17: return __frcp_rz(a);
  case 18: return __frcp_rd(a);    case 19: return __frcp_ru(a);
  case 20: return __fsqrt_rn(a);   case 21: return __fsqrt_rz(a);
  case 22: return __fsqrt_rd(a);   case 23: return __fsqrt_ru(a);
  case 24: return __fmaf_rn(a, b, c); case 25: return __fmaf_rz(a, b, c);
  case 26: return __fmaf_rd(a, b, c); default: return __fmaf_ru(a, b, c);
  }
}

template <>
__device__ double apply_op<double>(int op, int mode, double a, double b, double c) {
  switch (op * MODES + mode) {
  case 0: return __dadd_rn(a, b);  case 1: return __dadd_rz(a, b);
  case 2: return __dadd_rd(a, b);  case 3: return __dadd_ru(a, b);
  case 4: return __dsub_rn(a, b);  case 5: return __dsub_rz(a, b);
  case 6: return __dsub_rd(a, b);  case 7: return __dsub_ru(a, b);
  case 8: return __dmul_rn(a, b);  case 9: return __dmul_rz(a, b);
  case 10: return __dmul_rd(a, b); case 11: return __dmul_ru(a, b);
  case 12: return __ddiv_rn(a, b); case 13: return __ddiv_rz(a, b);
  case 14: return __ddiv_rd(a, b); case 15: return __ddiv_ru(a, b);
  case 16: return __drcp_rn(a);    case 17: return __drcp_rz(a);
  case 18: return __drcp_rd(a);    case 19: return __drcp_ru(a);
  case 20: return __dsqrt_rn(a);   case 21: return __dsqrt_rz(a);
  case 22: return __dsqrt_rd(a);   case 23: return __dsqrt_ru(a);
  case 24: return __fma_rn(a, b, c); case 25: return __fma_rz(a, b, c);
  case 26: return __fma_rd(a, b, c); default: return __fma_ru(a, b, c);
  }
}

template <class T>
__global__ void rounded(const T *a, const T *b, const T *c, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < OPS * MODES; k++)
    out[k * n + i] = apply_op<T>(k / MODES, k % MODES, a[i], b[i], c[i]);
}

static const int modes[MODES] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

// the host's arithmetic in rounding mode `mode` (the empty asm statements keep it between the mode changes)
template <class T>
__attribute__((noinline)) T reference(int op, int mode, T a, T b, T c) {
  int saved = fegetround();
  fesetround(modes[mode]);
  asm volatile("" : "+m"(a), "+m"(b), "+m"(c));
  T r;
  switch (op) {
  case 0: r = a + b; break;
  case 1: r = a - b; break;
  case 2: r = a * b; break;
  case 3: r = a / b; break;
  case 4: r = T(1) / a; break;
  case 5: r = std::sqrt(a); break;
  default: r = std::fma(a, b, c); break;
  }
  asm volatile("" : "+m"(r));
  fesetround(saved);
  return r;
}

static uint64_t state = 88172645463325252ull;
static uint64_t next_random() {
  state ^= state << 13; state ^= state >> 7; state ^= state << 17;
  return state;
}

template <class T, class U>
T from_bits(U u) { T x; std::memcpy(&x, &u, sizeof x); return x; }

// operand k of a test case: random bit patterns, small integers, subnormals, values whose sum or product is a
// rounding tie, huge values (overflow) and signed zeros
template <class T, class U>
T operand(int i, int k) {
  uint64_t r = next_random();
  const int mant = sizeof(T) == 4 ? 23 : 52;
  switch (i % 8) {
  case 0: return from_bits<T>((U)r);
  case 1: return (T)((int)(r % 2001) - 1000) / (T)8;
  case 2: return from_bits<T>((U)(r % ((U)1 << mant)) | (r & 1 ? (U)1 << (sizeof(T) * 8 - 1) : 0));
  case 3: return k == 1 ? std::ldexp((T)1, -mant - 1) * (r & 1 ? 1 : -1) : (T)1 + std::ldexp((T)(r % 64), -mant);
  case 4: return std::ldexp((T)(1 + r % 1000), (sizeof(T) == 4 ? 100 : 1000) + (int)(r % 40));
  case 5: return r & 1 ? (T)0 : -(T)0;
  case 6: return std::ldexp((T)(r % 4096 + 1), -(int)(r % 60));
  default: return (T)1 + std::ldexp((T)(r % 1024), -mant + 8) * (r & 2 ? 1 : -1);
  }
}

template <class T, class U>
int check(const char *name, int n) {
  std::vector<T> a(n), b(n), c(n), out((size_t)OPS * MODES * n);
  for (int i = 0; i < n; i++) {
    a[i] = operand<T, U>(i, 0);
    b[i] = operand<T, U>(i, 1);
    c[i] = operand<T, U>(i / 3, 2);
    if (i % 11 == 5) a[i] = std::fabs(a[i]);  // (so that square roots see many positive operands)
  }
  T *da, *db, *dc, *dout;
  cudaMalloc(&da, n * sizeof(T)); cudaMalloc(&db, n * sizeof(T)); cudaMalloc(&dc, n * sizeof(T));
  cudaMalloc(&dout, out.size() * sizeof(T));
  cudaMemcpy(da, a.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  rounded<T><<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  cudaMemcpy(out.data(), dout, out.size() * sizeof(T), cudaMemcpyDeviceToHost);
  int bad = 0, differ = 0;
  for (int k = 0; k < OPS * MODES; k++)
    for (int i = 0; i < n; i++) {
      T want = reference<T>(k / MODES, k % MODES, a[i], b[i], c[i]), got = out[(size_t)k * n + i];
      bool same = std::isnan(want) ? std::isnan(got) : std::memcmp(&want, &got, sizeof want) == 0;
      if (!same && bad++ < 5)
        printf("%s op %d mode %d: %a %a %a -> %a, want %a\n", name, k / MODES, k % MODES, (double)a[i],
               (double)b[i], (double)c[i], (double)got, (double)want);
      if (k % MODES == 2 && std::memcmp(&out[(size_t)k * n + i], &out[(size_t)(k + 1) * n + i], sizeof(T)))
        differ++;  // down and up differ wherever the result is inexact
    }
  printf("%s: %d results, %d wrong, %d inexact\n", name, OPS * MODES * n, bad, differ > 0);
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dout);
  return bad + (differ == 0);
}

int main() {
  int bad = check<float, uint32_t>("float", 4000) + check<double, uint64_t>("double", 4000);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
