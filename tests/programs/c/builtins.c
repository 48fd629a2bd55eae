/* GNU builtins and math.h's classification macros, on values known only at run time (and a few constants),
   printed so that pgcc's output can be compared with gcc's. */
#include <alloca.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double g_inf = INFINITY, g_nan = NAN, g_huge = HUGE_VAL;
float g_inff = HUGE_VALF;
int g_pop = __builtin_popcount(0xF0F) + __builtin_ctz(64);

static unsigned long long bits64(double d) {
  unsigned long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static unsigned bits32(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* the JSON parser's test: a number that is not finite is written as null */
static const char *json_number(double d) { return (isnan(d) || isinf(d)) ? "null" : "number"; }

static void classify_doubles(int k) {
  double zero = k - 1; /* (0 at run time: a folded 0.0/0.0 is a NaN of another sign) */
  double vals[] = {zero, -zero, 1.5 * k, -2.0 * k, DBL_MIN * k, DBL_MIN / 4 * k, DBL_MAX * k,
                   1.0 / zero, -1.0 / zero, zero / zero, -(zero / zero), HUGE_VAL, -HUGE_VAL, NAN, INFINITY};
  for (int i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++) {
    double d = vals[i];
    printf("d%d nan=%d inf=%d fin=%d nor=%d sb=%d cls=%d json=%s\n", i, isnan(d) != 0, isinf(d), isfinite(d) != 0,
           isnormal(d) != 0, signbit(d), fpclassify(d), json_number(d));
  }
}

static void classify_floats(int k) {
  float zero = k - 1;
  float vals[] = {zero, -zero, 1.5f * k, -2.0f * k, FLT_MIN * k, FLT_MIN / 4 * k, FLT_MAX * k, 1.0f / zero,
                  -1.0f / zero, zero / zero, HUGE_VALF, INFINITY, NAN};
  for (int i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++) {
    float f = vals[i];
    printf("f%d nan=%d inf=%d fin=%d nor=%d sb=%d sbf=%d cls=%d\n", i, isnan(f) != 0, isinf(f), isfinite(f) != 0,
           isnormal(f) != 0, signbit(f), __builtin_signbitf(f), fpclassify(f));
  }
}

static void comparisons(int k) {
  double zero = k - 1, nan = zero / zero, one = k;
  double xs[] = {zero, one, nan, -one};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      printf("%d%d%d%d%d%d ", isgreater(xs[i], xs[j]), isgreaterequal(xs[i], xs[j]), isless(xs[i], xs[j]),
             islessequal(xs[i], xs[j]), islessgreater(xs[i], xs[j]), isunordered(xs[i], xs[j]));
  printf("\n");
}

static void constants(void) {
  printf("inf %g %g %g %g\n", __builtin_inf(), (double)__builtin_inff(), __builtin_huge_val(),
         (double)__builtin_huge_valf());
  printf("nan %016llx %08x %016llx %08x\n", bits64(__builtin_nan("")), bits32(__builtin_nanf("")),
         bits64(__builtin_nan("0x15")), bits32(__builtin_nanf("7")));
  printf("macros %g %g %016llx\n", INFINITY, HUGE_VAL, bits64(NAN));
  printf("globals %g %016llx %g %g %d\n", g_inf, bits64(g_nan), g_huge, (double)g_inff, g_pop);
}

static void libm(int k) {
  double x = 0.75 * k, y = -2.5 * k;
  float xf = 0.75f * k, yf = -2.5f * k;
  printf("%.17g %.17g %.17g %.17g\n", __builtin_fabs(y), __builtin_sqrt(x), __builtin_pow(x, y), __builtin_sin(x));
  printf("%.17g %.17g %.17g %.17g\n", __builtin_cos(x), __builtin_exp(y), __builtin_log(x), __builtin_log10(x));
  printf("%.17g %.17g %.17g %.17g\n", __builtin_floor(y), __builtin_ceil(y), __builtin_fmod(y, x),
         __builtin_hypot(x, y));
  printf("%.17g %.17g %.17g %.17g\n", __builtin_copysign(x, y), __builtin_fmin(x, y), __builtin_fmax(x, y),
         __builtin_trunc(y));
  printf("%.9g %.9g %.9g %.9g %.9g\n", __builtin_fabsf(yf), __builtin_sqrtf(xf), __builtin_powf(xf, yf),
         __builtin_copysignf(xf, yf), __builtin_fmaxf(xf, yf));
  printf("%.17g %.17g %ld %.17g\n", __builtin_ldexp(x, 3), __builtin_atan2(y, x), __builtin_lround(y),
         __builtin_round(y));
}

static void bit_ops(unsigned k) {
  unsigned vals[] = {1u * k, 0x80000000u * k, 0xF0F0u * k + 1, 0xFFFFFFFFu * k, 12345678u * k};
  for (int i = 0; i < 5; i++) {
    unsigned v = vals[i];
    unsigned long lv = (unsigned long)v << 20 | 1;
    unsigned long long llv = (unsigned long long)v * 0x10001ull;
    printf("b%d %d %d %d %d %d %d | %d %d %d %d %d | %d %d %d %d %d\n", i, __builtin_popcount(v),
           __builtin_clz(v), __builtin_ctz(v), __builtin_ffs((int)v), __builtin_parity(v), __builtin_clrsb((int)v),
           __builtin_popcountl(lv), __builtin_clzl(lv), __builtin_ctzl(lv), __builtin_ffsl((long)lv),
           __builtin_parityl(lv), __builtin_popcountll(llv), __builtin_clzll(llv), __builtin_ctzll(llv),
           __builtin_ffsll((long long)llv), __builtin_clrsbll((long long)llv));
    printf("s%d %04x %08x %016llx\n", i, __builtin_bswap16((uint16_t)v), __builtin_bswap32(v),
           (unsigned long long)__builtin_bswap64(llv));
  }
  printf("ffs0 %d %d\n", __builtin_ffs((int)(k - 1)), __builtin_ffsll((long long)(k - 1)));
  printf("const %d %d %d\n", __builtin_popcount(255), __builtin_ctz(8), __builtin_clzll(1));
}

static void overflow(int k) {
  int imax = INT_MAX * k, imin = INT_MIN * k;
  int r;
  unsigned ur;
  long long llr;
  signed char cr;
  printf("add %d", __builtin_add_overflow(imax, 1, &r));
  printf(" %d", r);
  printf(" %d", __builtin_add_overflow(imax - 1, 1, &r));
  printf(" %d", r);
  printf(" %d", __builtin_sub_overflow(imin, 1, &r));
  printf(" %d", r);
  printf(" %d", __builtin_mul_overflow(imax, 2, &r));
  printf(" %d", r);
  printf(" %d", __builtin_mul_overflow(imax, 2, &llr));
  printf(" %lld", llr);
  printf(" %d", __builtin_sub_overflow(1u * k, 2u, &ur));
  printf(" %u", ur);
  printf(" %d", __builtin_sub_overflow(1 * k, 2, &ur));
  printf(" %u", ur);
  printf(" %d", __builtin_add_overflow(100 * k, 27, &cr));
  printf(" %d", cr);
  printf(" %d", __builtin_add_overflow(100 * k, 28, &cr));
  printf(" %d", cr);
  printf(" %d", __builtin_mul_overflow(-1 * k, -1, &ur));
  printf(" %u", ur);
  printf(" %d", __builtin_mul_overflow(LLONG_MAX * (long long)k, LLONG_MAX, &llr));
  printf(" %lld\n", llr);
  long lr;
  long long llr2;
  unsigned long ulr;
  printf("typed %d", __builtin_sadd_overflow(imax, 1, &r));
  printf(" %d", __builtin_uadd_overflow(0xFFFFFFFFu * k, 1u, &ur));
  printf(" %u", ur);
  printf(" %d", __builtin_smull_overflow(LONG_MAX / 2 * k, 3L, &lr));
  printf(" %ld", lr);
  printf(" %d", __builtin_ssubll_overflow(LLONG_MIN * (long long)k, 1LL, &llr2));
  printf(" %lld", llr2);
  printf(" %d", __builtin_umull_overflow(1ul << 63, 2ul * k, &ulr));
  printf(" %lu\n", ulr);
  struct { int a; long b; } s;
  printf("member %d", __builtin_add_overflow(imax, imax, &s.a));
  printf(" %d", s.a);
  printf(" %d", __builtin_add_overflow(imax, imax, &s.b));
  printf(" %ld\n", s.b);
}

static long hints(long n, double *p) {
  long v = 0;
  if (__builtin_expect(n > 3, 1))
    v += n;
  if (__builtin_expect_with_probability(n < 0, 0, 0.9))
    v -= 1;
  double *q = __builtin_assume_aligned(p, 8);
  __builtin_prefetch(q);
  __builtin_prefetch(q + 1, 1, 3);
  v += (long)q[1];
  if (n == 12345) {
    __builtin_trap();
  }
  if (n < -1000000)
    __builtin_unreachable();
  return v + __builtin_constant_p(7) * 100 + __builtin_constant_p(n) * 1000;
}

static void memory(int k) {
  char a[32], b[32];
  __builtin_memset(a, 'x', 31);
  a[31] = 0;
  __builtin_memcpy(b, a, 32);
  b[5 * k] = 0;
  __builtin_memmove(a + 2, a, 10);
  memmove(a, "hello", 5);
  printf("mem %s %s %lu %lu\n", a, b, (unsigned long)__builtin_strlen(a), strlen(b));
  int n = 8 * k;
  int *t = __builtin_alloca(n * sizeof(int));
  double *u = alloca(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    t[i] = i * i;
    u[i] = i * 0.5;
  }
  printf("alloca %d %g %d\n", t[n - 1], u[n - 1], (int)((uintptr_t)u % 16));
  char *dup = __builtin_strcpy(b, "copied");
  printf("strcpy %s %d\n", dup, __builtin_strcmp(b, "copied"));
}

/* idioms of real code: overflow-checked allocation sizes, likely/unlikely, byte-swapped hashes, type punning */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
struct growable { size_t len, cap; };

static void *alloc_array(size_t n, size_t size) {
  size_t total;
  if (unlikely(__builtin_mul_overflow(n, size, &total)))
    return NULL;
  return malloc(total);
}

static int grow(struct growable *b, size_t extra) {
  if (__builtin_add_overflow(b->len, extra, &b->cap))
    return -1;
  return 0;
}

static uint32_t fnv_hash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 16777619u;
    h = (h << 5) | (h >> 27);
  }
  return __builtin_bswap32(h);
}

static void real_code(int k) {
  void *p = alloc_array((size_t)1 << 62, 8 * k), *q = alloc_array(10, k);
  printf("real %d %d", p == NULL, q != NULL);
  free(q);
  struct growable b = {SIZE_MAX - 3, 0};
  int g = grow(&b, 2);
  printf(" %d %zu", g, b.cap);
  g = grow(&b, 10);
  printf(" %d %08x", g, fnv_hash("hello") ^ fnv_hash("abc"));
  float f = 1.5f * k;
  uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  printf(" %08x %d\n", u, (int)likely(k > 0));
}

struct pair { int a; double b; };

static void compile_time(int k) {
  int a = k, b = 2 * k;
  double s, c;
  __builtin_sincos(0.5 * k, &s, &c);
  printf("ct %d %d %d %d %d %.17g %.17g\n", __builtin_types_compatible_p(int, int),
         __builtin_types_compatible_p(int, long), __builtin_choose_expr(1, a, b), (int)__builtin_offsetof(struct pair, b),
         __builtin_classify_type(1.0), s, c);
}

static void absolute(int k) {
  int i = -7 * k;
  long l = -123456789012L * k;
  long long ll = -5LL * k;
  printf("abs %d %ld %lld %d %ld %lld %d\n", abs(i), labs(l), llabs(ll), __builtin_abs(i), __builtin_labs(l),
         __builtin_llabs(ll), abs(-i));
}

int main(int argc, char **argv) {
  int k = argc;  /* 1 */
  (void)argv;
  classify_doubles(k);
  classify_floats(k);
  comparisons(k);
  constants();
  libm(k);
  bit_ops(k);
  overflow(k);
  double arr[2] = {1.0, 2.0};
  printf("hints %ld %ld\n", hints(5 * k, arr), hints(-1 * k, arr));
  memory(k);
  absolute(k);
  compile_time(k);
  real_code(k);
  return 0;
}
