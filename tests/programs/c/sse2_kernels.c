/* SSE2 kernels as compression and hashing libraries write them, each checked against a scalar path:
 * an Adler-32 style checksum (psadbw, pmaddwd, unpack), a 64-bit multiply-accumulate hash round
 * (pmuludq, shuffles, shifts), a byte search (pcmpeqb + pmovmskb), and saturating / min / max / average
 * byte arithmetic. */
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MOD 65521u

static uint32_t adler_scalar(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t s1 = adler & 0xffff, s2 = adler >> 16;
    for (size_t i = 0; i < n; i++) {
        s1 = (s1 + p[i]) % MOD;
        s2 = (s2 + s1) % MOD;
    }
    return (s2 << 16) | s1;
}

static uint32_t hsum_epi32(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(v);
}

/* 16 bytes per step: s1 += sum(bytes) (psadbw), s2 += 16*s1 + sum((16-i)*byte_i) (pmaddwd) */
static uint32_t adler_sse2(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t s1 = adler & 0xffff, s2 = adler >> 16;
    const __m128i zero = _mm_setzero_si128();
    const __m128i w_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i w_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (n >= 16) {
        size_t blocks = n / 16 < 256 ? n / 16 : 256;
        __m128i v_s1 = zero, v_s2 = zero, v_prev = zero;
        for (size_t b = 0; b < blocks; b++, p += 16) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)p);
            v_prev = _mm_add_epi32(v_prev, v_s1);
            v_s1 = _mm_add_epi32(v_s1, _mm_sad_epu8(bytes, zero));
            __m128i lo = _mm_unpacklo_epi8(bytes, zero), hi = _mm_unpackhi_epi8(bytes, zero);
            v_s2 = _mm_add_epi32(v_s2, _mm_add_epi32(_mm_madd_epi16(lo, w_lo), _mm_madd_epi16(hi, w_hi)));
        }
        n -= blocks * 16;
        uint64_t t1 = hsum_epi32(v_s1), t2 = hsum_epi32(v_s2) + 16ull * hsum_epi32(v_prev);
        s2 = (uint32_t)((s2 + (uint64_t)s1 * 16 * blocks + t2) % MOD);
        s1 = (uint32_t)((s1 + t1) % MOD);
    }
    return adler_scalar((s2 << 16) | s1, p, n);
}

#define P32_1 0x9E3779B1u
#define KEY 0x3C6EF372FE94F82Bull

/* one accumulate round over 8 lanes of 64 bits: acc += swap(in) + lo32(in ^ key) * hi32(in ^ key) */
static void accumulate_scalar(uint64_t acc[4], const uint8_t *in, const uint64_t key[4]) {
    uint64_t w[4];
    memcpy(w, in, 32);
    for (int i = 0; i < 4; i++) {
        uint64_t k = w[i] ^ key[i];
        acc[i ^ 1] += w[i];
        acc[i] += (k & 0xffffffffu) * (k >> 32);
    }
}

static void accumulate_sse2(uint64_t acc[4], const uint8_t *in, const uint64_t key[4]) {
    for (int i = 0; i < 2; i++) {
        __m128i a = _mm_loadu_si128((const __m128i *)acc + i);
        __m128i d = _mm_loadu_si128((const __m128i *)in + i);
        __m128i k = _mm_xor_si128(d, _mm_loadu_si128((const __m128i *)key + i));
        __m128i hi = _mm_shuffle_epi32(k, _MM_SHUFFLE(0, 3, 0, 1));
        __m128i prod = _mm_mul_epu32(k, hi);
        __m128i swapped = _mm_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2));
        a = _mm_add_epi64(a, _mm_add_epi64(prod, swapped));
        _mm_storeu_si128((__m128i *)acc + i, a);
    }
}

static void scramble_sse2(uint64_t acc[4]) {
    const __m128i prime = _mm_set1_epi32((int)P32_1);
    for (int i = 0; i < 2; i++) {
        __m128i a = _mm_loadu_si128((const __m128i *)acc + i);
        a = _mm_xor_si128(a, _mm_srli_epi64(a, 47));
        __m128i hi = _mm_shuffle_epi32(a, _MM_SHUFFLE(0, 3, 0, 1));
        __m128i lo_prod = _mm_mul_epu32(a, prime);
        __m128i hi_prod = _mm_slli_epi64(_mm_mul_epu32(hi, prime), 32);
        _mm_storeu_si128((__m128i *)acc + i, _mm_add_epi64(lo_prod, hi_prod));
    }
}

static void scramble_scalar(uint64_t acc[4]) {
    for (int i = 0; i < 4; i++) {
        uint64_t a = acc[i] ^ (acc[i] >> 47);
        acc[i] = a * P32_1;
    }
}

static int find_byte_sse2(const uint8_t *p, int n, uint8_t c) {
    __m128i needle = _mm_set1_epi8((char)c);
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), needle));
        if (mask)
            return i + __builtin_ctz(mask);
    }
    for (; i < n; i++)
        if (p[i] == c)
            return i;
    return -1;
}

static void print_u8(const char *what, __m128i v) {
    uint8_t b[16];
    _mm_storeu_si128((__m128i *)b, v);
    printf("%s:", what);
    for (int i = 0; i < 16; i++)
        printf(" %d", b[i]);
    printf("\n");
}

static void print_i16(const char *what, __m128i v) {
    int16_t h[8];
    _mm_storeu_si128((__m128i *)h, v);
    printf("%s:", what);
    for (int i = 0; i < 8; i++)
        printf(" %d", h[i]);
    printf("\n");
}

int main(void) {
    static uint8_t data[5000];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof data; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (uint8_t)(x >> 16);
    }
    printf("adler %08x %08x\n", adler_scalar(1, data + 3, 4900), adler_sse2(1, data + 3, 4900));

    uint64_t key[4] = {KEY, KEY * 3, KEY ^ 0xffff, KEY + 77};
    uint64_t acc1[4] = {1, 2, 3, 4}, acc2[4] = {1, 2, 3, 4};
    for (int r = 0; r < 40; r++) {
        accumulate_scalar(acc1, data + 32 * r + 1, key);
        accumulate_sse2(acc2, data + 32 * r + 1, key);
        if (r % 8 == 7) {
            scramble_scalar(acc1);
            scramble_sse2(acc2);
        }
    }
    printf("acc %016llx %016llx / %016llx %016llx\n", (unsigned long long)acc1[0], (unsigned long long)acc1[3],
           (unsigned long long)acc2[0], (unsigned long long)acc2[3]);
    printf("find %d %d %d\n", find_byte_sse2(data, 5000, data[77]), find_byte_sse2(data, 5000, data[4999]),
           find_byte_sse2(data, 40, 0));

    __m128i a = _mm_loadu_si128((const __m128i *)data), b = _mm_loadu_si128((const __m128i *)(data + 16));
    print_u8("adds", _mm_adds_epu8(a, b));
    print_u8("subs", _mm_subs_epu8(a, b));
    print_u8("avg", _mm_avg_epu8(a, b));
    print_u8("max", _mm_max_epu8(a, b));
    print_u8("min", _mm_min_epu8(a, b));
    print_u8("slli_si128", _mm_slli_si128(a, 3));
    print_u8("srli_si128", _mm_srli_si128(a, 5));
    print_u8("cmpgt", _mm_cmpgt_epi8(a, b));
    print_u8("packus", _mm_packus_epi16(_mm_srai_epi16(a, 3), _mm_srli_epi16(b, 2)));
    print_i16("mulhi", _mm_mulhi_epi16(a, b));
    print_i16("mullo", _mm_mullo_epi16(a, b));
    print_i16("adds16", _mm_adds_epi16(a, b));
    print_i16("shufflelo", _mm_shufflehi_epi16(_mm_shufflelo_epi16(a, 0x1b), 0x4e));
    print_i16("insert", _mm_insert_epi16(a, -7, 5));
    printf("extract %d\n", _mm_extract_epi16(b, 6));
    print_i16("unpack", _mm_unpacklo_epi16(a, b));
    print_i16("sll", _mm_sll_epi16(a, _mm_cvtsi32_si128(3)));
    print_u8("andnot", _mm_andnot_si128(a, b));
    __m128d d = _mm_set_pd(2.5, -1.25);
    __m128d e = _mm_sqrt_pd(_mm_mul_pd(d, d));
    double out[2];
    _mm_storeu_pd(out, _mm_add_pd(e, _mm_min_pd(d, e)));
    printf("pd %.4f %.4f mask %d\n", out[0], out[1], _mm_movemask_pd(_mm_cmplt_pd(d, _mm_setzero_pd())));
    __m128 f = _mm_set_ps(1.5f, -2.5f, 3.25f, 100.0f);
    __m128i fi = _mm_cvtps_epi32(f), ft = _mm_cvttps_epi32(f);
    printf("ps %d %d %d\n", _mm_cvtsi128_si32(fi), _mm_cvtsi128_si32(_mm_srli_si128(fi, 12)),
           _mm_cvtsi128_si32(_mm_srli_si128(ft, 8)));
    return 0;
}
