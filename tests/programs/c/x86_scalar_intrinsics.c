/* Scalar x86 intrinsics a hashing or codec library reaches for (BMI/BMI2/LZCNT bit tricks, SSE4.2 crc32,
 * AES and carry-less multiply rounds, fences, pause, MXCSR, the time-stamp counter), in a target-attributed
 * function as run-time dispatch calls them. */
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
__attribute__((target("bmi,bmi2,lzcnt,aes,sse4.2,pclmul"))) static void t(uint32_t x, uint64_t y) {
  printf("%u %u %u %llu\n", _tzcnt_u32(x), _lzcnt_u32(x), _tzcnt_u32(0), (unsigned long long)_lzcnt_u64(y));
  printf("%u %u %u\n", _pext_u32(x, 0xf0f0f0f0u), _pdep_u32(x, 0x0ff00ff0u), _bzhi_u32(x, 7));
  printf("%u %u\n", _mm_crc32_u32(0xffffffffu, x), (unsigned)_mm_crc32_u8(1, 200));
  __m128i k = _mm_set_epi64x(0x0123456789abcdefll, (long long)y);
  __m128i e = _mm_aesenc_si128(k, _mm_set1_epi32((int)x));
  __m128i c = _mm_clmulepi64_si128(k, e, 0x11);
  printf("%llx %llx\n", (unsigned long long)_mm_cvtsi128_si64(e), (unsigned long long)_mm_extract_epi64(c, 1));
}
/* an AVX-512 accumulate round in xxh3's style: shuffles, 32x32->64 multiplies, shifts, masked moves */
__attribute__((target("avx512f"))) static void avx512_round(uint64_t acc[8], const uint64_t in[8]) {
  __m512i a = _mm512_loadu_si512(acc), d = _mm512_loadu_si512(in);
  __m512i k = _mm512_xor_si512(d, _mm512_set1_epi64(0x9E3779B185EBCA87ll));
  __m512i hi = _mm512_shuffle_epi32(k, (_MM_PERM_ENUM)_MM_SHUFFLE(0, 3, 0, 1));
  a = _mm512_add_epi64(a, _mm512_mul_epu32(k, hi));
  a = _mm512_xor_si512(a, _mm512_srli_epi64(a, 47));
  a = _mm512_mask_mov_epi64(a, 0x5a, _mm512_slli_epi64(d, 3));
  _mm512_storeu_si512(acc, a);
}

int main(void) {
  _mm_pause(); _mm_lfence(); _mm_mfence(); _mm_sfence();
  unsigned csr = _mm_getcsr(); _mm_setcsr(csr);
  unsigned long long t0 = __rdtsc();
  t(0x12345670u, 0x0000ffff00000000ull);
  printf("csr %x %d\n", csr, __rdtsc() >= t0);
  uint64_t acc[8], in[8];
  for (int i = 0; i < 8; i++) { acc[i] = i * 0x1234567ull; in[i] = ~acc[i] * 77; }
  for (int r = 0; r < 5; r++) avx512_round(acc, in);
  for (int i = 0; i < 8; i++) printf("%016llx%c", (unsigned long long)acc[i], i == 7 ? '\n' : ' ');
  return 0;
}
