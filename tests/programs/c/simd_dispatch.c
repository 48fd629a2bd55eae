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
#ifdef __AVX2__
    printf("compiled with AVX2\n");
#endif
    return 0;
}
