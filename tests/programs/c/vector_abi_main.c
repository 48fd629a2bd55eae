/* Vectors across the C ABI, the calling half (vector_abi_lib.c): built by gcc or pgcc against the other. */
#include <emmintrin.h>
#include <stdio.h>
typedef int v2si __attribute__((vector_size(8)));
typedef struct { v2si v; int n; } small;
typedef struct { __m128d d; int n; } mixed;
typedef struct { double x, y; } pt;
small bump(small s); mixed scale(mixed m, double k);
typedef struct { long a, b; } two_longs;
long ints_after_vectors(__m128d a, __m128d b, __m128d c, __m128d d, __m128d e, __m128d f, two_longs t);
double after_vectors(__m128d a, __m128d b, __m128d c, __m128d d, __m128d e, __m128d f, __m128d g, pt p, pt q);
int main(void) {
  small s = { {3, 4}, 5 }; s = bump(s);
  mixed m = { _mm_setr_pd(1.5, 2.5), 7 }; m = scale(m, 2.0);
  pt p = {1, 2}, q = {3, 4};
  __m128d o = _mm_set1_pd(1);
  two_longs t = {5, 6};
  printf("ints %ld\n", ints_after_vectors(o, o, o, o, o, o, t));
  printf("%d %d %d %g %g %d %g\n", s.v[0], s.v[1], s.n, _mm_cvtsd_f64(m.d), _mm_cvtsd_f64(_mm_unpackhi_pd(m.d, m.d)), m.n, after_vectors(o, o, o, o, o, o, o, p, q));
  return 0;
}
