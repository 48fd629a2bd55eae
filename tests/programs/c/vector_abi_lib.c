/* Vectors across the C ABI, the library half: vector arguments in SSE registers (also when they run out
 * and records behind them go to memory), 8-byte vectors inside small records, vectors in big records. */
#include <emmintrin.h>
typedef int v2si __attribute__((vector_size(8)));
typedef struct { v2si v; int n; } small;
typedef struct { __m128d d; int n; } mixed;
small bump(small s) { small r = { s.v + 1, s.n * 2 }; return r; }
mixed scale(mixed m, double k) { mixed r = { _mm_mul_pd(m.d, _mm_set1_pd(k)), m.n + 1 }; return r; }
typedef struct { double x, y; } pt;
double after_vectors(__m128d a, __m128d b, __m128d c, __m128d d, __m128d e, __m128d f, __m128d g, pt p, pt q) { return _mm_cvtsd_f64(a + b + c + d + e + f + g) + p.x + p.y * 10 + q.x * 100 + q.y * 1000; }
typedef struct { long a, b; } two_longs;
long ints_after_vectors(__m128d a, __m128d b, __m128d c, __m128d d, __m128d e, __m128d f, two_longs t) { return (long)_mm_cvtsd_f64(a + b + c + d + e + f) + t.a * 10 + t.b * 100; }
