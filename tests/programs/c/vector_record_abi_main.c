/* Records holding vectors across the C ABI, the caller half (vector_record_abi_lib.c). */
#include <immintrin.h>
#include <stdio.h>
typedef struct { __m128i v; } w128;
typedef struct { __m128d v; } d128;
typedef struct { __m128 a; } f128;
typedef struct { __m256i v; } w256;
w128 w_add(w128 a, w128 b);
d128 d_scale(d128 a, double k, d128 b);
f128 f_mix(int n, f128 a, long m, f128 b);
long w_sum(w128 a, w128 b, w128 c, w128 d, w128 e, w128 f, w128 g, w128 h, w128 i, long z);
w256 y_add(w256 a, w256 b);
typedef union { __m128i v; unsigned u[4]; } uvec;
typedef union { __m128 v; float f[4]; } fvec;
typedef union { __m128 v; __m128d d; } vv;
typedef struct { struct { __m128i in; } nest[1]; } nested;
uvec u_twist(uvec a, int k);
fvec f_twist(fvec a, fvec b);
vv v_twist(double x, vv a);
nested n_twist(nested a);
long v_sum(int n, ...);
typedef struct { __m512i z; } w512;
w512 z_add(w512 a, w512 b);
long y_var(int n, ...);
int main(void) {
  w128 a = { _mm_set_epi32(1, 2, 3, 4) }, b = { _mm_set_epi32(10, 20, 30, 40) };
  w128 r = w_add(a, b);
  int o[4]; _mm_storeu_si128((__m128i *)o, r.v); printf("w_add %d %d %d %d\n", o[0], o[1], o[2], o[3]);
  d128 d = d_scale((d128){ _mm_set_pd(2, 3) }, 1.5, (d128){ _mm_set_pd(100, 200) });
  printf("d_scale %g %g\n", d.v[0], d.v[1]);
  f128 f = f_mix(2, (f128){ _mm_set1_ps(1.25f) }, 3, (f128){ _mm_set_ps(1, 2, 3, 4) });
  printf("f_mix %g %g %g %g\n", f.a[0], f.a[1], f.a[2], f.a[3]);
  w128 k[9]; for (int i = 0; i < 9; i++) k[i].v = _mm_set_epi64x(i * 100, i + 1);
  printf("w_sum %ld\n", w_sum(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], 7));
#ifdef __AVX2__
  w256 y = y_add((w256){ _mm256_set1_epi32(5) }, (w256){ _mm256_set_epi32(1, 2, 3, 4, 5, 6, 7, 8) });
  int p[8]; _mm256_storeu_si256((__m256i *)p, y.v); printf("y_add %d %d %d\n", p[0], p[3], p[7]);
#endif
  uvec u = u_twist((uvec){ .u = {1, 2, 3, 4} }, 3); printf("u_twist %u %u %u %u\n", u.u[0], u.u[1], u.u[2], u.u[3]);
  fvec fv = f_twist((fvec){ .f = {1, 2, 3, 4} }, (fvec){ .f = {0.5f, 0.25f, 2, 8} });
  printf("f_twist %g %g %g %g\n", fv.f[0], fv.f[1], fv.f[2], fv.f[3]);
  vv w = v_twist(3, (vv){ .d = _mm_set_pd(1.5, -2) }); printf("v_twist %g %g\n", w.d[0], w.d[1]);
  nested nn = n_twist((nested){ { { _mm_set_epi64x(1, 2) } } }); printf("n_twist %lld\n", (long long)_mm_cvtsi128_si64(nn.nest[0].in));
  printf("v_sum %ld\n", v_sum(10, k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[1]));
#ifdef __AVX512F__
  w512 z = z_add((w512){ _mm512_set1_epi64(3) }, (w512){ _mm512_set_epi64(1, 2, 3, 4, 5, 6, 7, 8) });
  long long zz[8]; _mm512_storeu_si512(zz, z.z); printf("z_add %lld %lld\n", zz[0], zz[7]);
#endif
#ifdef __AVX__
  w256 ys[3]; for (int i = 0; i < 3; i++) ys[i].v = _mm256_set_epi32(i, 1, 2, 3, 4, 5, 6, i * 9);
  printf("y_var %ld\n", y_var(3, ys[0], ys[1], ys[2]));
#endif
  return 0;
}
