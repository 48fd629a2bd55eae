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
int main(void) {
  _mm_pause(); _mm_lfence(); _mm_mfence(); _mm_sfence();
  unsigned csr = _mm_getcsr(); _mm_setcsr(csr);
  unsigned long long t0 = __rdtsc();
  t(0x12345670u, 0x0000ffff00000000ull);
  printf("csr %x %d\n", csr, __rdtsc() >= t0);
  return 0;
}
