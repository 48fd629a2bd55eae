/* AVX-512 as integer SIMD code uses it (F, BW, VL, CD, VBMI, IFMA, VPOPCNTDQ, VNNI, GFNI): arithmetic, shifts and
 * rotates, compares into mask registers, merge and zero masking, blends, permutes across the register, valign,
 * reductions, byte shuffles and sums of differences, masked loads and stores that stop at the mask, compress and
 * expand, conversions and fused multiply-add, mask-register logic, ternary logic, lzcnt/popcnt/conflict,
 * multiply-add of 52-bit and byte lanes, Galois-field affine transforms. Built for the default target: the
 * kernels carry target attributes and run when __builtin_cpu_supports says the CPU has the extensions. */
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512cd,avx512vbmi,avx512ifma,avx512vpopcntdq," \
                                    "avx512vnni,gfni,fma")))
AVX512 static void p32(const char *n, __m512i v) { int t[16]; _mm512_storeu_si512(t, v); printf("%s:", n); for (int i = 0; i < 16; i++) printf(" %d", t[i]); printf("\n"); }
AVX512 static void p8(const char *n, __m512i v) { unsigned char t[64]; _mm512_storeu_si512(t, v); printf("%s:", n); for (int i = 0; i < 64; i += 5) printf(" %u", t[i]); printf("\n"); }
AVX512 static void kernels(void) {
  int a[16], b[16]; unsigned char bytes[80];
  for (int i = 0; i < 16; i++) { a[i] = i * 7 - 40; b[i] = 100 - i * i; }
  for (int i = 0; i < 80; i++) bytes[i] = (unsigned char)(i * 29 + 3);
  __m512i va = _mm512_loadu_si512(a), vb = _mm512_loadu_si512(b);
  p32("add", _mm512_add_epi32(va, vb));
  p32("mullo", _mm512_mullo_epi32(va, vb));
  p32("min", _mm512_min_epi32(va, vb));
  p32("max_u", _mm512_max_epu32(va, vb));
  p32("abs", _mm512_abs_epi32(va));
  p32("srli", _mm512_srli_epi32(va, 3));
  p32("srai", _mm512_srai_epi32(va, 33));
  p32("rol", _mm512_rol_epi32(va, 5));
  p32("sllv", _mm512_sllv_epi32(va, _mm512_set1_epi32(3)));
  __mmask16 m = _mm512_cmpgt_epi32_mask(va, vb);
  printf("mask %x %x %x\n", m, _mm512_cmpeq_epi32_mask(va, va), _mm512_cmplt_epu32_mask(va, vb));
  p32("blend", _mm512_mask_blend_epi32(m, va, vb));
  p32("mask_add", _mm512_mask_add_epi32(va, m, va, vb));
  p32("maskz_sub", _mm512_maskz_sub_epi32(m, va, vb));
  p32("permutexvar", _mm512_permutexvar_epi32(_mm512_set_epi32(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15), va));
  p32("permutex2var", _mm512_permutex2var_epi32(va, _mm512_set1_epi32(17), vb));
  p32("shuffle", _mm512_shuffle_epi32(va, _MM_PERM_ABCD));
  p32("unpacklo", _mm512_unpacklo_epi32(va, vb));
  p32("alignr", _mm512_alignr_epi32(va, vb, 3));
  printf("reduce %d %d %d\n", _mm512_reduce_add_epi32(va), _mm512_reduce_max_epi32(va), _mm512_reduce_or_epi32(vb));
  __m512i bv = _mm512_loadu_si512(bytes);
  p8("shuffle_epi8", _mm512_shuffle_epi8(bv, _mm512_set1_epi8(3)));
  p8("adds_epu8", _mm512_adds_epu8(bv, bv));
  p8("sad", _mm512_sad_epu8(bv, _mm512_setzero_si512()));
  printf("cmpeq8 %llx\n", (unsigned long long)_mm512_cmpeq_epi8_mask(bv, _mm512_set1_epi8(32)));
  printf("movepi8 %llx\n", (unsigned long long)_mm512_movepi8_mask(bv));
  p8("maskz_loadu", _mm512_maskz_loadu_epi8(0x00ff00ff00ff00ffULL, bytes + 3));
  _mm512_mask_storeu_epi8(bytes + 1, 0xf0f0ULL, _mm512_set1_epi8(-1));
  printf("stored %u %u %u\n", bytes[1], bytes[5], bytes[13]);
  p32("compress", _mm512_maskz_compress_epi32(0x5555, va));
  p32("expand", _mm512_maskz_expand_epi32(0x00ff, vb));
  __m512 fa = _mm512_cvtepi32_ps(va), fb = _mm512_set1_ps(0.5f);
  p32("fmadd_cvt", _mm512_cvtps_epi32(_mm512_fmadd_ps(fa, fb, fb)));
  p32("cvtt", _mm512_cvttps_epi32(_mm512_mul_ps(fa, fb)));
  p32("sqrt", _mm512_cvtps_epi32(_mm512_sqrt_ps(_mm512_abs_ps(fa))));
  __m512d da = _mm512_cvtepi32_pd(_mm512_castsi512_si256(va));
  printf("reduce_pd %g\n", _mm512_reduce_add_pd(da));
  __m256i y = _mm256_mask_add_epi32(_mm512_castsi512_si256(va), 0x0f, _mm512_castsi512_si256(va), _mm512_castsi512_si256(vb));
  int t8[8]; _mm256_storeu_si256((__m256i *)t8, y); printf("vl %d %d %d\n", t8[0], t8[3], t8[7]);
  __mmask16 k = _kor_mask16(m, 0x0101); printf("kor %x %d\n", k, _mm512_kortestz(m, m));
  p32("ternlog", _mm512_ternarylogic_epi32(va, vb, _mm512_set1_epi32(0x0f0f0f0f), 0x96));
  p32("cvtepu8", _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)bytes)));
  p32("madd52", _mm512_madd52lo_epu64(va, vb, va));
  p32("popcnt", _mm512_popcnt_epi32(va));
  p32("dpbusd", _mm512_dpbusd_epi32(va, vb, va));
  p32("conflict", _mm512_conflict_epi32(_mm512_set1_epi32(3)));
  p32("lzcnt", _mm512_lzcnt_epi32(va));
  p8("gf2p8", _mm512_gf2p8affine_epi64_epi8(bv, _mm512_set1_epi64(0x0102040810204080LL), 0));
  p8("vbmi_perm", _mm512_permutexvar_epi8(bv, bv));
}

int main(void) {
  int have = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd") &&
             __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512ifma") &&
             __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vnni") &&
             __builtin_cpu_supports("gfni") && __builtin_cpu_supports("fma");
  if (!have) {
    puts("this CPU lacks an AVX-512 extension the kernels use");
    return 0;
  }
  kernels();
  return 0;
}
