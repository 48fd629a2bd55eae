/* Run-time CPU dispatch as x86 libraries write it: an ifunc whose resolver picks an AVX2 or an SSE2 kernel by
 * __builtin_cpu_supports after __builtin_cpu_init, a function pointer chosen once by a resolver called directly
 * (`pick()(...)`), target_clones, and the values gcc's builtins give (the feature's bit, 0/1 for cpu_is). */
#include <stdio.h>
#include <immintrin.h>

typedef long (*sum_fn)(const int *, int);

static long sum_scalar(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }

__attribute__((target("avx2"))) static long sum_avx2(const int *a, int n) {
  __m256i acc = _mm256_setzero_si256();
  int i = 0;
  for (; i + 4 <= n; i += 4)
    acc = _mm256_add_epi64(acc, _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(a + i))));
  long t[4];
  _mm256_storeu_si256((__m256i *)t, acc);
  long s = t[0] + t[1] + t[2] + t[3];
  for (; i < n; i++) s += a[i];
  return s;
}

static sum_fn resolve_sum(void) {
  __builtin_cpu_init();  /* (a resolver may run before libgcc's constructor) */
  return __builtin_cpu_supports("avx2") ? sum_avx2 : sum_scalar;
}
long dispatched_sum(const int *a, int n) __attribute__((ifunc("resolve_sum")));

__attribute__((target_clones("avx2", "default")))
long dot(const int *a, const int *b, int n) { long s = 0; for (int i = 0; i < n; i++) s += (long)a[i] * b[i]; return s; }

int main(void) {
  int a[67], b[67];
  for (int i = 0; i < 67; i++) { a[i] = i * 37 % 101 - 50; b[i] = 13 - i % 29; }
  __builtin_cpu_init();
  printf("sum %ld %ld %ld\n", dispatched_sum(a, 67), resolve_sum()(a, 67), sum_scalar(a, 67));
  printf("dot %ld\n", dot(a, b, 67));
  printf("supports %d %d %d %d %d %d\n", __builtin_cpu_supports("sse2"), __builtin_cpu_supports("avx2"),
         __builtin_cpu_supports("avx512f"), __builtin_cpu_supports("avx512vbmi2"),
         __builtin_cpu_supports("x86-64-v3"), __builtin_cpu_supports("sha") != 0);
  printf("is %d %d %d\n", __builtin_cpu_is("intel"), __builtin_cpu_is("amd"),
         __builtin_cpu_is("znver3") + __builtin_cpu_is("sapphirerapids") + __builtin_cpu_is("skylake"));
  return 0;
}
