/* SSSE3, SSE4.1 and AVX2 paths chosen at compile time (-mssse3/-msse4.1/-mavx2 set __SSSE3__, __SSE4_1__,
 * __AVX2__) and per function with target attributes, as codec libraries dispatch; every path is checked
 * against its scalar loop. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t dot_u8_scalar(const uint8_t *a, const int8_t *b, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return (uint32_t)s;
}

__attribute__((target("avx2"))) static uint32_t dot_u8_avx2(const uint8_t *a, const int8_t *b, int n) {
    __m256i acc = _mm256_setzero_si256();
    const __m256i ones = _mm256_set1_epi16(1);
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i va = _mm256_loadu_si256((const __m256i *)(a + i));
        __m256i vb = _mm256_loadu_si256((const __m256i *)(b + i));
        /* (products of 0..15 and -8..7: pairs never saturate) */
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(va, vb), ones));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    s = _mm_hadd_epi32(s, s);
    s = _mm_hadd_epi32(s, s);
    uint32_t r = (uint32_t)_mm_cvtsi128_si32(s);
    return r + dot_u8_scalar(a + i, b + i, n - i);
}

__attribute__((target("ssse3"))) static void reverse16_ssse3(uint8_t *dst, const uint8_t *src) {
    const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    _mm_storeu_si128((__m128i *)dst, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)src), rev));
}

__attribute__((target("sse4.1"))) static int sse41_checks(const uint8_t *p, int32_t out[12]) {
    __m128i a = _mm_loadu_si128((const __m128i *)p), b = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i w = _mm_cvtepu8_epi32(a);
    __m128i m = _mm_mullo_epi32(w, _mm_cvtepi8_epi32(b));
    __m128i mx = _mm_max_epi32(m, _mm_set1_epi32(-100));
    __m128i bl = _mm_blend_epi16(a, b, 0x5a);
    __m128i bv = _mm_blendv_epi8(a, b, _mm_cmpgt_epi8(a, b));
    _mm_storeu_si128((__m128i *)out, mx);
    out[4] = _mm_extract_epi32(bl, 2);
    out[5] = _mm_extract_epi8(bv, 9);
    out[6] = _mm_testz_si128(a, _mm_setzero_si128());
    out[7] = _mm_extract_epi32(_mm_insert_epi32(a, 77, 1), 1);
    out[8] = _mm_extract_epi32(_mm_packus_epi32(m, w), 1);
    out[9] = _mm_extract_epi32(_mm_alignr_epi8(a, b, 5), 0);
    out[10] = _mm_extract_epi32(_mm_abs_epi8(b), 3);
    out[11] = _mm_extract_epi32(_mm_sign_epi16(a, b), 0);
    return _mm_cvtsi128_si32(_mm_minpos_epu16(a));
}

__attribute__((target("avx2"))) static void avx2_checks(const uint8_t *p, int64_t out[8]) {
    __m256i a = _mm256_loadu_si256((const __m256i *)p), b = _mm256_loadu_si256((const __m256i *)(p + 32));
    __m256i perm = _mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(7, 0, 6, 1, 5, 2, 4, 3));
    __m256i sh = _mm256_srlv_epi32(a, _mm256_and_si256(b, _mm256_set1_epi32(31)));
    __m256i p4 = _mm256_permute4x64_epi64(a, 0x1b);
    __m256i p2 = _mm256_permute2x128_si256(a, b, 0x21);
    __m256i sad = _mm256_sad_epu8(a, b);
    __m256i un = _mm256_unpackhi_epi8(a, b);
    __m256i sr = _mm256_srli_si256(a, 3);
    out[0] = _mm256_extract_epi32(perm, 1) ^ _mm256_extract_epi32(perm, 6);
    out[1] = _mm256_extract_epi32(sh, 5);
    out[2] = _mm256_extract_epi64(p4, 0);
    out[3] = _mm256_extract_epi64(p2, 3);
    out[4] = _mm256_extract_epi64(sad, 2);
    out[5] = _mm256_movemask_epi8(_mm256_cmpgt_epi8(a, b));
    out[6] = _mm256_extract_epi16(un, 9) + _mm256_extract_epi8(sr, 20);
    out[7] = _mm256_extract_epi64(_mm256_mul_epu32(a, b), 1) + _mm256_testz_si256(a, b);
}

/* immediate-operand shuffles, blends, lane moves and float forms of AVX2 and SSE4.1, printed whole */
__attribute__((target("avx2"))) static void pr(const char *w, __m256i v) { int32_t o[8]; _mm256_storeu_si256((__m256i *)o, v); printf("%s", w); for (int i = 0; i < 8; i++) printf(" %d", o[i]); printf("\n"); }
static void pr4(const char *w, __m128 v) { float o[4]; _mm_storeu_ps(o, v); printf("%s %g %g %g %g\n", w, o[0], o[1], o[2], o[3]); }
__attribute__((target("avx2"))) static void lane_ops(const uint8_t *p) {
  __m256i a = _mm256_loadu_si256((const __m256i *)p), b = _mm256_loadu_si256((const __m256i *)(p + 32));
  pr("shuffle_epi32", _mm256_shuffle_epi32(a, 0x93));
  pr("alignr", _mm256_alignr_epi8(a, b, 7));
  pr("alignr20", _mm256_alignr_epi8(a, b, 20));
  pr("blend32", _mm256_blend_epi32(a, b, 0xa6));
  pr("blend16", _mm256_blend_epi16(a, b, 0x3c));
  pr("insert", _mm256_inserti128_si256(a, _mm256_castsi256_si128(b), 1));
  pr("perm2x128", _mm256_permute2x128_si256(a, b, 0x83));
  pr("slli_si256", _mm256_slli_si256(a, 5));
  pr("shufflehi", _mm256_shufflehi_epi16(a, 0x1b));
  pr("unpacklo64", _mm256_unpacklo_epi64(a, b));
  pr("cvtepu8", _mm256_cvtepu8_epi32(_mm256_castsi256_si128(a)));
  pr("packs", _mm256_packs_epi32(a, b));
  pr("mullo", _mm256_mullo_epi32(a, b));
  pr("min", _mm256_min_epu32(a, b));
  pr("abs", _mm256_abs_epi16(a));
  pr("hadd", _mm256_hadd_epi16(a, b));
  pr("sllv", _mm256_sllv_epi64(a, _mm256_set1_epi64x(3)));
  pr("sra", _mm256_sra_epi16(a, _mm_cvtsi32_si128(4)));
  pr("srai", _mm256_srai_epi32(a, 9));
  pr("broadcast", _mm256_broadcastd_epi32(_mm256_castsi256_si128(b)));
  pr("bcast128", _mm256_broadcastsi128_si256(_mm256_castsi256_si128(b)));
  pr("maskload", _mm256_maskload_epi32((const int *)p, _mm256_setr_epi32(-1, 0, -1, 0, 0, 0, -1, -1)));
  __m256 f = _mm256_cvtepi32_ps(a), g = _mm256_cvtepi32_ps(b);
  pr("ps", _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_permute_ps(f, 0x4e), _mm256_set1_ps(0.001f))));
  pr("cmpps", _mm256_castps_si256(_mm256_cmp_ps(f, g, _CMP_LT_OQ)));
  pr("shufps", _mm256_castps_si256(_mm256_shuffle_ps(f, g, 0xb1)));
  pr("blendv", _mm256_castps_si256(_mm256_blendv_ps(f, g, f)));
  pr("permpd", _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castsi256_pd(a), 0x9c)));
  __m128 x = _mm_setr_ps(1, 2, 3, 4), y = _mm_setr_ps(5, 6, 7, 8);
  pr4("shuffle_ps", _mm_shuffle_ps(x, y, 0x1e));
  pr4("blend_ps", _mm_blend_ps(x, y, 0x5));
  pr4("movehl", _mm_movehl_ps(x, y));
  pr4("round", _mm_round_ps(_mm_mul_ps(x, _mm_set1_ps(1.37f)), _MM_FROUND_TO_NEAREST_INT));
  pr4("dp", _mm_dp_ps(x, y, 0xf1));
  pr4("insert_ps", _mm_insert_ps(x, y, 0x90));
  pr4("hadd_ps", _mm_hadd_ps(x, y));
  pr4("rsqrt~", _mm_cmpgt_ps(_mm_rsqrt_ps(x), _mm_set1_ps(0.5f)));
  __m128d d = _mm_setr_pd(1.5, -2.5);
  double o[2]; _mm_storeu_pd(o, _mm_shuffle_pd(d, _mm_set1_pd(9), 1)); printf("shufpd %g %g\n", o[0], o[1]);
  printf("extract %d %lld %d\n", _mm256_extract_epi8(a, 30), (long long)_mm256_extract_epi64(b, 2), _mm_extract_epi8(_mm256_extracti128_si256(a, 1), 3));
  printf("testc %d %d %d\n", _mm256_testc_si256(a, b), _mm_testnzc_si128(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b)), _mm256_movemask_ps(f));
}
/* intrinsics taking pointers: masked loads and stores, lddqu, maskmovdqu, gathers */
__attribute__((target("avx2"))) static void memory_ops(int *p, const char *q, const double *d) {
    __m256i m = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, 0, -1);
    __m256i v = _mm256_maskload_epi32(p, m);
    _mm256_maskstore_epi32(p + 8, m, _mm256_add_epi32(v, _mm256_set1_epi32(100)));
    __m128i u = _mm_lddqu_si128((const __m128i *)q);
    _mm_maskmoveu_si128(u, _mm_set1_epi8((char)0x80), (char *)(p + 16));
    __m256i idx = _mm256_setr_epi32(7, 0, 3, 3, 12, 1, 9, 5);
    __m256i g = _mm256_i32gather_epi32(p, idx, 4);
    __m256i w = _mm256_mask_i32gather_epi32(_mm256_set1_epi32(-9), p, idx, _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0), 4);
    __m256d x = _mm256_i64gather_pd(d, _mm256_setr_epi64x(2, 0, 5, 1), 8);
    __m128i y = _mm_i64gather_epi32(p, _mm_set_epi64x(8, 4), 4);
    double o[4];
    _mm256_storeu_pd(o, x);
    printf("gathers %d %d %d %d %.1f %.1f %d %d\n", _mm256_extract_epi32(g, 0), _mm256_extract_epi32(g, 4),
           _mm256_extract_epi32(w, 1), _mm256_extract_epi32(w, 6), o[0], o[2], _mm_extract_epi32(y, 0),
           _mm_extract_epi32(y, 1));
}

int main(void) {
    static uint8_t a[1000];
    static int8_t b[1000];
    for (int i = 0; i < 1000; i++) {
        a[i] = (uint8_t)((i * 7 + 3) & 15);
        b[i] = (int8_t)(((i * 13) & 15) - 8);
    }
    printf("dot %u %u\n", dot_u8_scalar(a, b, 999), dot_u8_avx2(a, b, 999));
    uint8_t src[64], dst[16];
    for (int i = 0; i < 64; i++)
        src[i] = (uint8_t)(i * 29 + 5);
    reverse16_ssse3(dst, src + 1);
    printf("rev %d %d %d\n", dst[0], dst[7], dst[15]);
    int32_t o[12];
    int mp = sse41_checks(src, o);
    printf("sse41 %d:", mp);
    for (int i = 0; i < 12; i++)
        printf(" %d", o[i]);
    printf("\n");
    int64_t q[8];
    avx2_checks(src, q);
    printf("avx2:");
    for (int i = 0; i < 8; i++)
        printf(" %lld", (long long)q[i]);
    printf("\n");
    lane_ops(src);
    int words[24] = {0};
    double reals[8];
    for (int i = 0; i < 8; i++) {
        words[i] = i * i + 1;
        reals[i] = i * 1.5;
    }
    memory_ops(words, "abcdefghijklmnop", reals);
    for (int i = 0; i < 24; i++)
        printf("%d%c", words[i], i == 23 ? '\n' : ' ');
#ifdef __AVX2__
    printf("compiled with AVX2\n");
#endif
    return 0;
}
