/* Records holding vectors across the C ABI, the library half: a record that is one 16/32/64-byte vector goes in
 * one XMM/YMM/ZMM register (with AVX/AVX-512F for the wider ones), a union of a vector and an int array in two
 * integer registers, one of a vector and a float array in two SSE registers; va_arg of such records. */
#include <immintrin.h>
typedef struct { __m128i v; } w128;
typedef struct { __m128d v; } d128;
typedef struct { __m128 a; } f128;
typedef struct { float x, y, z, w; } plain4;
typedef struct { __m256i v; } w256;
w128 w_add(w128 a, w128 b) { w128 r = { _mm_add_epi32(a.v, b.v) }; return r; }
d128 d_scale(d128 a, double k, d128 b) { d128 r = { a.v * k + b.v }; return r; }
f128 f_mix(int n, f128 a, long m, f128 b) { f128 r = { a.a * (float)n + b.a * (float)m }; return r; }
long w_sum(w128 a, w128 b, w128 c, w128 d, w128 e, w128 f, w128 g, w128 h, w128 i, long z) {
  __m128i s = _mm_add_epi64(_mm_add_epi64(_mm_add_epi64(a.v, b.v), _mm_add_epi64(c.v, d.v)), _mm_add_epi64(_mm_add_epi64(e.v, f.v), _mm_add_epi64(_mm_add_epi64(g.v, h.v), i.v)));
  return _mm_cvtsi128_si64(s) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)) * 3 + z; }
#ifdef __AVX2__
w256 y_add(w256 a, w256 b) { w256 r = { _mm256_add_epi32(a.v, b.v) }; return r; }
#endif
#include <stdarg.h>
typedef union { __m128i v; unsigned u[4]; } uvec;
typedef union { __m128 v; float f[4]; } fvec;
typedef union { __m128 v; __m128d d; } vv;
typedef struct { struct { __m128i in; } nest[1]; } nested;
uvec u_twist(uvec a, int k) { uvec r; for (int i = 0; i < 4; i++) r.u[i] = a.u[3 - i] * k; return r; }
fvec f_twist(fvec a, fvec b) { fvec r = { _mm_sub_ps(a.v, b.v) }; r.f[0] += 100; return r; }
vv v_twist(double x, vv a) { vv r; r.d = _mm_mul_pd(a.d, _mm_set1_pd(x)); return r; }
nested n_twist(nested a) { nested r = { { { _mm_slli_epi64(a.nest[0].in, 4) } } }; return r; }
long v_sum(int n, ...) {
  va_list ap; va_start(ap, n); long s = 0;
  for (int i = 0; i < n; i++) { w128 w = va_arg(ap, w128); s = s * 7 + _mm_cvtsi128_si64(w.v) + _mm_extract_epi16(w.v, 4); }
  va_end(ap); return s; }
#ifdef __AVX512F__
typedef struct { __m512i z; } w512;
w512 z_add(w512 a, w512 b) { w512 r = { _mm512_add_epi64(a.z, b.z) }; return r; }
#endif
#ifdef __AVX__
long y_var(int n, ...) {
  va_list ap; va_start(ap, n); long s = 0;
  for (int i = 0; i < n; i++) { w256 w = va_arg(ap, w256); s = s * 5 + _mm256_extract_epi32(w.v, 7) + _mm256_extract_epi32(w.v, 0); }
  va_end(ap); return s; }
#endif
