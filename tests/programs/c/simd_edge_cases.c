/* SIMD code the way vector libraries write it, at the edges where compilers differ: unaligned loads through
 * __m128i_u and aligned(1) vector typedefs, intrinsic shifts by counts at and beyond the element width,
 * signed/unsigned saturation and packs, movemasks, compares used as select masks, float compares with NaN,
 * shuffles by constant masks, conversions under the default rounding (ties to even, out-of-range values),
 * vectors in structs, unions, arrays and globals, vector division, vector_size(4..64) arithmetic passed by
 * value, __builtin_convertvector rounding, and __builtin_bit_cast. */
#include <emmintrin.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

typedef struct { __m128i lo, hi; int tag; } pair_t;
static __m128i table[4];
static unsigned char buf[64 + 15];

static void dump8(const char *n, __m128i v) {
  unsigned char b[16]; _mm_storeu_si128((__m128i *)b, v);
  printf("%s:", n); for (int i = 0; i < 16; i++) printf(" %02x", b[i]); printf("\n");
}
static void dump16(const char *n, __m128i v) {
  short b[8]; _mm_storeu_si128((__m128i *)b, v);
  printf("%s:", n); for (int i = 0; i < 8; i++) printf(" %d", b[i]); printf("\n");
}
static void dump32(const char *n, __m128i v) {
  int b[4]; _mm_storeu_si128((__m128i *)b, v);
  printf("%s:", n); for (int i = 0; i < 4; i++) printf(" %d", b[i]); printf("\n");
}
static void dump64(const char *n, __m128i v) {
  long long b[2]; _mm_storeu_si128((__m128i *)b, v);
  printf("%s: %llx %llx\n", n, (unsigned long long)b[0], (unsigned long long)b[1]);
}

__attribute__((noinline)) static __m128i shift_var(__m128i v, int n) { return _mm_slli_epi32(v, n); }
__attribute__((noinline)) static __m128i shift_var16(__m128i v, int n) { return _mm_srai_epi16(v, n); }
__attribute__((noinline)) static __m128i shift_cnt(__m128i v, __m128i c) { return _mm_srl_epi64(v, c); }

static void intrinsics(void) {
  for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (unsigned char)(i * 37 + 11);
  /* unaligned loads at every offset */
  unsigned acc = 0;
  for (int off = 0; off < 16; off++) {
    __m128i v = _mm_loadu_si128((const __m128i_u *)(buf + off));
    acc = acc * 31 + (unsigned)_mm_movemask_epi8(v);
    acc += (unsigned)_mm_cvtsi128_si32(v);
  }
  printf("unaligned acc %u\n", acc);
  __m128i *ap = (__m128i *)(((uintptr_t)buf + 15) & ~(uintptr_t)15);
  dump8("aligned", _mm_load_si128(ap));
  /* store at unaligned */
  _mm_storeu_si128((__m128i_u *)(buf + 3), _mm_set1_epi8(0x5a));
  printf("buf[2..20]:"); for (int i = 2; i < 20; i++) printf(" %02x", buf[i]); printf("\n");

  /* shifts >= width */
  __m128i x = _mm_set_epi32(-1, 0x12345678, -0x7fffffff, 5);
  for (int n = 0; n < 40; n += 7) dump32("slli", shift_var(x, n));
  dump32("slli32", _mm_slli_epi32(x, 32));
  dump32("srli33", _mm_srli_epi32(x, 33));
  dump32("srai40", _mm_srai_epi32(x, 40));
  dump32("srai31", _mm_srai_epi32(x, 31));
  __m128i w = _mm_set_epi16(-32768, -1, 1, 32767, 100, -100, 0, 7);
  for (int n = 0; n < 20; n += 5) dump16("srai16", shift_var16(w, n));
  dump16("slli16_16", _mm_slli_epi16(w, 16));
  dump16("srli16_255", _mm_srli_epi16(w, 255));
  dump16("srli16_256", _mm_srli_epi16(w, 256));
  dump64("srl64_64", shift_cnt(_mm_set_epi64x(-1, 0x1234), _mm_cvtsi32_si128(64)));
  dump64("srl64_63", shift_cnt(_mm_set_epi64x(-1, 0x1234), _mm_cvtsi32_si128(63)));
  dump64("srl64_big", shift_cnt(_mm_set_epi64x(-1, 0x1234), _mm_set_epi64x(0, 1LL << 40)));
  dump64("srl64_hi", shift_cnt(_mm_set_epi64x(-1, 0x1234), _mm_set_epi64x(1, 3)));
  dump16("sra_cnt", _mm_sra_epi16(w, _mm_cvtsi32_si128(17)));
  dump16("sll_cnt", _mm_sll_epi16(w, _mm_cvtsi32_si128(3)));
  /* vector-extension shifts */
  typedef int v4si __attribute__((vector_size(16)));
  v4si a = {1, -8, 1 << 30, -1};
  v4si s = {0, 1, 2, 31};
  v4si r = a >> s;
  printf("ext shr: %d %d %d %d\n", r[0], r[1], r[2], r[3]);
  r = a << s;
  printf("ext shl: %d %d %d %d\n", r[0], r[1], r[2], r[3]);
  typedef unsigned short v8hu __attribute__((vector_size(16)));
  v8hu hu = {1, 2, 65535, 32768, 7, 8, 9, 10};
  v8hu hr = hu >> 3;
  printf("ushr: %u %u %u %u\n", hr[0], hr[2], hr[3], hr[7]);
  typedef short v8hs __attribute__((vector_size(16)));
  v8hs hs = (v8hs)hu;
  v8hs hsr = hs >> 3;
  printf("sshr: %d %d %d %d\n", hsr[0], hsr[2], hsr[3], hsr[7]);

  /* saturation */
  __m128i b1 = _mm_set_epi8(127, -128, 100, -100, 50, -50, 0, 1, -1, 120, -120, 127, -128, 64, -64, 3);
  __m128i b2 = _mm_set_epi8(1, -1, 100, -100, 100, -100, 0, -1, 1, 10, -10, -128, 127, 64, -65, -4);
  dump8("adds_epi8", _mm_adds_epi8(b1, b2));
  dump8("subs_epi8", _mm_subs_epi8(b1, b2));
  dump8("adds_epu8", _mm_adds_epu8(b1, b2));
  dump8("subs_epu8", _mm_subs_epu8(b1, b2));
  dump16("adds_epi16", _mm_adds_epi16(w, w));
  dump16("subs_epu16", _mm_subs_epu16(w, _mm_set1_epi16(100)));
  dump16("adds_epu16", _mm_adds_epu16(w, w));
  dump8("packs", _mm_packs_epi16(w, _mm_set_epi16(300, -300, 127, -129, 128, -128, 255, 256)));
  dump8("packus", _mm_packus_epi16(w, _mm_set_epi16(300, -300, 127, -129, 128, -128, 255, 256)));
  dump16("packs32", _mm_packs_epi32(x, _mm_set_epi32(70000, -70000, 32768, -32769)));
  /* movemask */
  printf("movemask_epi8 %x\n", _mm_movemask_epi8(b1));
  printf("movemask_pd %x\n", _mm_movemask_pd(_mm_set_pd(-0.0, 1.0)));
  printf("movemask_ps %x\n", _mm_movemask_ps(_mm_set_ps(-1.0f, 0.0f, -0.0f, 2.0f)));
  /* compares & select */
  __m128i gt = _mm_cmpgt_epi8(b1, b2);
  __m128i sel = _mm_or_si128(_mm_and_si128(gt, b1), _mm_andnot_si128(gt, b2));
  dump8("max_by_select", sel);
  dump8("cmpeq", _mm_cmpeq_epi8(b1, b2));
  dump32("cmplt32", _mm_cmplt_epi32(x, _mm_setzero_si128()));
  typedef float v4sf __attribute__((vector_size(16)));
  v4sf f1 = {1.0f, -2.0f, __builtin_nanf(""), 4.0f}, f2 = {1.0f, 3.0f, 1.0f, -4.0f};
  v4si m = f1 < f2, me = f1 == f2, mn = f1 != f2;
  printf("fcmp: %d %d %d %d | %d %d %d %d | %d %d %d %d\n", m[0], m[1], m[2], m[3], me[0], me[1], me[2], me[3], mn[0], mn[1], mn[2], mn[3]);

  /* shuffles */
  dump32("shuf_1b", _mm_shuffle_epi32(x, 0x1b));
  dump32("shuf_00", _mm_shuffle_epi32(x, 0x00));
  dump16("shuflo", _mm_shufflelo_epi16(w, 0x1b));
  dump16("shufhi", _mm_shufflehi_epi16(w, 0xe4 ^ 0x55));
  dump8("srli_si128_5", _mm_srli_si128(b1, 5));
  dump8("slli_si128_15", _mm_slli_si128(b1, 15));
  dump8("slli_si128_16", _mm_slli_si128(b1, 16));
  dump8("srli_si128_20", _mm_srli_si128(b1, 20));
  __m128 ps = _mm_shuffle_ps(_mm_set_ps(4, 3, 2, 1), _mm_set_ps(8, 7, 6, 5), _MM_SHUFFLE(0, 1, 2, 3));
  float pf[4]; _mm_storeu_ps(pf, ps); printf("shufps %g %g %g %g\n", pf[0], pf[1], pf[2], pf[3]);
  __m128d pd = _mm_shuffle_pd(_mm_set_pd(2, 1), _mm_set_pd(4, 3), 1);
  double dd[2]; _mm_storeu_pd(dd, pd); printf("shufpd %g %g\n", dd[0], dd[1]);
  dump8("unpacklo8", _mm_unpacklo_epi8(b1, b2));
  dump16("unpackhi16", _mm_unpackhi_epi16(w, x));
  dump64("unpacklo64", _mm_unpacklo_epi64(x, w));
  /* conversions with default rounding: ties to even */
  __m128 hf = _mm_set_ps(2.5f, -2.5f, 3.5f, 0.5f);
  dump32("cvtps2dq", _mm_cvtps_epi32(hf));
  dump32("cvttps2dq", _mm_cvttps_epi32(hf));
  dump32("cvtps_big", _mm_cvtps_epi32(_mm_set_ps(3e9f, -3e9f, __builtin_nanf(""), 1.5f)));
  dump32("cvtpd2dq", _mm_cvtpd_epi32(_mm_set_pd(-1.5, 1.5)));
  volatile double big = 1e20;
  dump32("cvttpd2dq", _mm_cvttpd_epi32(_mm_set_pd(-1.7, big)));
  printf("cvtsd_si32 %d %d %d\n", _mm_cvtsd_si32(_mm_set_sd(2.5)), _mm_cvtsd_si32(_mm_set_sd(-3.5)), _mm_cvtsd_si32(_mm_set_sd(1e10)));
  printf("cvtss_si32 %d %d\n", _mm_cvtss_si32(_mm_set_ss(4.5f)), _mm_cvttss_si32(_mm_set_ss(-4.9f)));
  printf("cvtsd_si64 %lld\n", (long long)_mm_cvtsd_si64(_mm_set_sd(-9.5)));
  __m128 cf = _mm_cvtepi32_ps(_mm_set_epi32(16777217, -16777219, 0x7fffffff, 3));
  _mm_storeu_ps(pf, cf); printf("cvtdq2ps %.1f %.1f %.1f %.1f\n", pf[0], pf[1], pf[2], pf[3]);
  __m128 c2 = _mm_cvtpd_ps(_mm_set_pd(1.0000001, 3.4e39));
  _mm_storeu_ps(pf, c2); printf("cvtpd2ps %g %g %g %g\n", pf[0], pf[1], pf[2], pf[3]);
  /* vectors in structs and arrays */
  pair_t p = { _mm_set1_epi32(3), _mm_set1_epi32(4), 9 };
  pair_t q = p;
  q.lo = _mm_add_epi32(q.lo, q.hi);
  table[2] = q.lo; table[3] = _mm_mullo_epi16(table[2], p.hi);
  dump32("table2", table[2]); dump32("table3", table[3]);
  printf("tag %d sizeof %zu align %zu\n", q.tag, sizeof(pair_t), _Alignof(pair_t));
  pair_t arr[3]; memset(arr, 0, sizeof arr);
  for (int i = 0; i < 3; i++) { arr[i].lo = _mm_set1_epi16((short)i); arr[i].tag = i; }
  dump16("arr2", arr[2].lo);
  /* min/max/avg/mulhi/madd/sad */
  dump16("min16", _mm_min_epi16(w, _mm_set1_epi16(5)));
  dump8("max_u8", _mm_max_epu8(b1, b2));
  dump8("avg_u8", _mm_avg_epu8(b1, b2));
  dump16("mulhi", _mm_mulhi_epi16(w, w));
  dump16("mulhi_u", _mm_mulhi_epu16(w, w));
  dump32("madd", _mm_madd_epi16(w, w));
  dump64("sad", _mm_sad_epu8(b1, b2));
  dump64("mul_epu32", _mm_mul_epu32(x, x));
  /* float min/max with NaN ordering */
  __m128 n1 = _mm_set_ps(__builtin_nanf(""), 1, -0.0f, 0.0f), n2 = _mm_set_ps(1, __builtin_nanf(""), 0.0f, -0.0f);
  _mm_storeu_ps(pf, _mm_min_ps(n1, n2)); printf("minps %g %g %g %g\n", pf[0], pf[1], pf[2], pf[3]);
  _mm_storeu_ps(pf, _mm_max_ps(n1, n2)); printf("maxps %g %g %g %g\n", pf[0], pf[1], pf[2], pf[3]);
  printf("signbits %x %x\n", _mm_movemask_ps(_mm_min_ps(n1, n2)), _mm_movemask_ps(_mm_max_ps(n1, n2)));
  /* insert/extract */
  printf("extract %d %d\n", _mm_extract_epi16(w, 7), _mm_extract_epi16(w, 0));
  dump16("insert", _mm_insert_epi16(w, -2, 3));
  /* 64-bit scalar moves */
  dump64("move_epi64", _mm_move_epi64(_mm_set_epi64x(5, 6)));
  dump64("loadl", _mm_loadl_epi64((const __m128i *)(buf + 1)));
  printf("cvtsi128_si64 %lld\n", (long long)_mm_cvtsi128_si64(_mm_set_epi64x(1, -2)));
}

typedef int v4si __attribute__((vector_size(16)));
typedef unsigned v4su __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
typedef signed char v16qs __attribute__((vector_size(16)));
typedef short v8hs __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef unsigned long long v2du __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef float v2sf __attribute__((vector_size(8)));
typedef int v8si __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));
typedef unsigned v16su __attribute__((vector_size(64)));
typedef unsigned char v4qu __attribute__((vector_size(4)));
typedef int v4si_u __attribute__((vector_size(16), aligned(1)));
typedef union { v4si v; int a[4]; unsigned char b[16]; } pun;
struct rec { char c; v4si v; short s; v2sf f; };
struct big { v8si a; v4df d; };
static v4si gv = {1, 2, 3};
static const v16qu gbytes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255};
static v8si garr[2] = {{1, 2, 3, 4, 5, 6, 7, 8}, {0, 0, 0, 9, 0, 0, 0, -1}};

#define P4(n, v) printf("%s: %d %d %d %d\n", n, (int)(v)[0], (int)(v)[1], (int)(v)[2], (int)(v)[3])
#define PU4(n, v) printf("%s: %u %u %u %u\n", n, (unsigned)(v)[0], (unsigned)(v)[1], (unsigned)(v)[2], (unsigned)(v)[3])
#define PF4(n, v) printf("%s: %g %g %g %g\n", n, (double)(v)[0], (double)(v)[1], (double)(v)[2], (double)(v)[3])

__attribute__((noinline)) static v4si divmod(v4si a, v4si b, v4si *m) { *m = a % b; return a / b; }
__attribute__((noinline)) static v4su udivmod(v4su a, v4su b, v4su *m) { *m = a % b; return a / b; }
__attribute__((noinline)) static struct rec mkrec(int k) { struct rec r = {'x', {k, k + 1, k + 2, k + 3}, (short)k, {1.5f, 2.5f}}; return r; }
__attribute__((noinline)) static struct big bump(struct big b) { b.a += 1; b.d *= 2; return b; }
__attribute__((noinline)) static v2sf half(v2sf x) { return x * 0.5f; }
__attribute__((noinline)) static v4qu addq(v4qu a, v4qu b) { return a + b; }
__attribute__((noinline)) static v8si mul8(v8si a, v8si b) { return a * b; }
__attribute__((noinline)) static v16su rot(v16su a, unsigned n) { return (a << n) | (a >> (32 - n)); }
__attribute__((noinline)) static v4si load_u(const void *p) { return *(const v4si_u *)p; }
__attribute__((noinline)) static void store_u(void *p, v4si v) { *(v4si_u *)p = v; }

static void generic_vectors(void) {
  v4si a = {-7, 7, -8, 2147483647}, b = {2, -2, 3, 10}, m;
  v4si q = divmod(a, b, &m);
  P4("div", q); P4("mod", m);
  v4su ua = {7u, 0xffffffffu, 100u, 3u}, ub = {2u, 16u, 7u, 5u}, um;
  v4su uq = udivmod(ua, ub, &um);
  PU4("udiv", uq); PU4("umod", um);
  /* unsigned compare */
  v4si ult = ua < ub; P4("ult", ult);
  v4si slt = (v4si)ua < (v4si)ub; P4("slt", slt);
  v16qu x = gbytes;
  v16qs cmp = (v16qs)(x > (v16qu){128, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  printf("cmp bytes:"); for (int i = 0; i < 16; i++) printf(" %d", cmp[i]); printf("\n");
  v2di d64 = {INT64_MIN, 5}; v2di dz = {0, 0};
  v2di c64 = d64 < dz; printf("c64 %lld %lld\n", (long long)c64[0], (long long)c64[1]);
  v2df df = {1.0, __builtin_nan("")};
  v2di cdf = df == df; printf("cdf %lld %lld\n", (long long)cdf[0], (long long)cdf[1]);
  v2di cdn = df != df; printf("cdn %lld %lld\n", (long long)cdn[0], (long long)cdn[1]);
  /* negation, complement, increments */
  v4su neg = -ua; PU4("neg", neg);
  v4si cpl = ~a; P4("cpl", cpl);
  v4si inc = a; inc += 1; P4("inc", inc);
  v4sf fv = {1.5f, -0.0f, 3.0f, 1e30f};
  v4sf fn = -fv; PF4("fneg", fn);
  fv += 1; fv *= fv; PF4("fops", fv);
  v4sf fd = fv / (v4sf){0.0f, 1.0f, -0.0f, 3.0f}; PF4("fdiv", fd);
  /* scalar operands */
  v4si sc = 3 - a; P4("rsub", sc);
  v4si sh = 1 << (v4si){0, 1, 2, 31}; P4("shl1", sh);
  v4su ush = 0x80000000u >> (v4su){0, 1, 31, 16}; PU4("ushr", ush);
  v16qs sb = {-128, -1, 64, 1}; v16qs sbr = sb >> 2;
  printf("sb: %d %d %d %d\n", sbr[0], sbr[1], sbr[2], sbr[3]);
  v16qu ubq = {255, 128, 1}; v16qu ubr = ubq >> 7; v16qu ubl = ubq << 1;
  printf("ub: %u %u %u | %u %u %u\n", ubr[0], ubr[1], ubr[2], ubl[0], ubl[1], ubl[2]);
  /* char arithmetic wraps */
  v16qu wsum = ubq + ubq; printf("wrap: %u %u %u\n", wsum[0], wsum[1], wsum[2]);
  v8hs hs = {32767, -32768, 100}; v8hs hm = hs * 3; printf("hmul: %d %d %d\n", hm[0], hm[1], hm[2]);
  /* logical ops */


  /* element access with run-time index and writes */
  pun p; p.v = gv;
  for (int i = 0; i < 4; i++) p.v[i] += i * 10;
  P4("pun", p.a);
  printf("pun bytes %u %u\n", p.b[4], p.b[15]);
  volatile int idx = 3; gv[idx] = 42; P4("gv", gv);
  /* struct with vector members */
  struct rec r = mkrec(5);
  printf("rec %c %d %d %d %g %g size %zu align %zu off %zu %zu\n", r.c, r.v[0], r.v[3], r.s, r.f[0], r.f[1],
         sizeof r, _Alignof(struct rec), __builtin_offsetof(struct rec, v), __builtin_offsetof(struct rec, f));
  struct big bg = {{1, 2, 3, 4, 5, 6, 7, 8}, {0.5, 1, 2, 3}};
  bg = bump(bg); P4("big.a", bg.a); PF4("big.d", bg.d);
  printf("big size %zu\n", sizeof bg);  /* (alignof: gcc caps it at the widest vector register, clang does not) */
  v2sf h = half((v2sf){3.0f, -1.0f}); printf("half %g %g\n", h[0], h[1]);
  v4qu aq = addq((v4qu){250, 1, 2, 3}, (v4qu){10, 255, 2, 3}); printf("addq %u %u %u %u\n", aq[0], aq[1], aq[2], aq[3]);
  v8si m8 = mul8(garr[0], garr[1] + 2);
  printf("mul8:"); for (int i = 0; i < 8; i++) printf(" %d", m8[i]); printf("\n");
  v16su r16 = rot((v16su){1, 2, 0x80000000u, 0xdeadbeefu, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xffffffffu}, 5);
  printf("rot:"); for (int i = 0; i < 16; i++) printf(" %x", r16[i]); printf("\n");
  /* unaligned via aligned(1) typedef */
  unsigned char raw[40]; for (int i = 0; i < 40; i++) raw[i] = (unsigned char)(i * 7);
  v4si lu = load_u(raw + 3); P4("load_u", lu);
  store_u(raw + 5, lu + 1); printf("raw:"); for (int i = 4; i < 22; i++) printf(" %u", raw[i]); printf("\n");
  /* convertvector rounding */
  v4sf cf = {2.7f, -2.7f, 0.5f, -0.5f};
  v4si ci = __builtin_convertvector(cf, v4si); P4("cvt f->i", ci);
  v4su cu = __builtin_convertvector((v4sf){3e9f, 1.9f, 0.0f, 4294967040.0f}, v4su); PU4("cvt f->u", cu);
  v4sf back = __builtin_convertvector((v4si){16777217, -16777217, 0x7fffffff, -3}, v4sf);
  printf("cvt i->f: %.1f %.1f %.1f %.1f\n", back[0], back[1], back[2], back[3]);
  v4sf ub2 = __builtin_convertvector((v4su){0xffffffffu, 0x80000001u, 16777217u, 1}, v4sf);
  printf("cvt u->f: %.1f %.1f %.1f %.1f\n", ub2[0], ub2[1], ub2[2], ub2[3]);
  v4df wide = __builtin_convertvector(cf, v4df); PF4("cvt f->d", wide);
  v2df dd = {1e300, 1.00000001}; v2sf ds = __builtin_convertvector(dd, v2sf); printf("d->f %g %.9g\n", ds[0], ds[1]);
  v8hs nar = __builtin_convertvector((v8si){70000, -70000, 1, -1, 32768, 65535, 0, 3}, v8hs);
  printf("narrow:"); for (int i = 0; i < 8; i++) printf(" %d", nar[i]); printf("\n");
  v2du wz = __builtin_convertvector((v2sf){0}, v2du) ; (void)wz;
  v4si sx = __builtin_convertvector((v16qs){-1, -128, 127, 5}, v16qs)[0] + (v4si){0};
  P4("sx", sx);
  /* shufflevector */
  v4si sv = __builtin_shufflevector(a, b, 7, 0, -1, 4);
  printf("shuf %d %d %d\n", sv[0], sv[1], sv[3]);
  v8si wide8 = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7); P4("wide8", wide8);

  /* vector compare result used as mask in arithmetic */
  v4si mx = (a > b) & a | (a <= b) & b; P4("max via mask", mx);
  v4si cnt = {0}; for (int i = 0; i < 5; i++) cnt -= (a > (v4si){i, i, i, i}); P4("cnt", cnt);
  /* equality of whole vector via memcmp */
  v4si e1 = {1, 2, 3, 4}, e2 = {1, 2, 3, 4};
  printf("memcmp %d\n", memcmp(&e1, &e2, sizeof e1));
  /* sizeof / alignof of vector types */
  printf("sizes %zu %zu %zu %zu %zu | align %zu %zu\n", sizeof(v2sf), sizeof(v4qu), sizeof(v8si), sizeof(v16su),
         sizeof(v4si_u), _Alignof(v2sf), _Alignof(v4si_u));
}

/* __builtin_bit_cast where the compiler has it (clang, pgcc), else the memcpy it means (gcc 12's C) */
#if defined(__has_builtin) && __has_builtin(__builtin_bit_cast)
#define BIT_CAST(T, ...) __builtin_bit_cast(T, __VA_ARGS__)
#else
#define BIT_CAST(T, ...) ({ __typeof__(__VA_ARGS__) from_ = (__VA_ARGS__); T to_; memcpy(&to_, &from_, sizeof to_); to_; })
#endif
typedef struct { uint16_t lo, hi; } halves;
typedef struct { double x; long n; } dl_rec;
static void bit_casts(void) {
  float f = -1.5f;
  uint32_t u = BIT_CAST(uint32_t, f);
  double d = BIT_CAST(double, 0x400921fb54442d18ULL);
  v4sf v = BIT_CAST(v4sf, (__int128)1 << 62 | (unsigned __int128)0x3f800000 << 96);
  halves p = BIT_CAST(halves, 0xdeadbeefu);
  uint32_t back = BIT_CAST(uint32_t, p);
  int x = 5; int *ip = BIT_CAST(int *, (uintptr_t)&x);
  dl_rec r = BIT_CAST(dl_rec, (v4sf){1, 2, 3, 4});
  unsigned __int128 w = BIT_CAST(unsigned __int128, r);
  v4si as_int = BIT_CAST(v4si, (v4sf){-0.0f, 1.0f, 2.0f, -3.0f}) & 0x7fffffff;  /* fabs by the sign bits */
  v4sf absv = BIT_CAST(v4sf, as_int);
  printf("bit_cast %08x %.15g %g %g %x %x %x %d %ld %llx | %g %g\n", u, d, v[1], v[3], p.lo, p.hi, back, *ip, r.n,
         (unsigned long long)(w >> 64), absv[0], absv[3]);
}

int main(void) {
  intrinsics();
  generic_vectors();
  bit_casts();
  return 0;
}
