/* simd and parallel for simd / for simd: vectorization requests with hint clauses (safelen, aligned). */
#include <stdio.h>
int main(void) {
  float a[4096], b[4096];
  double s = 0, t = 0;
  for (int i = 0; i < 4096; i++) { a[i] = i * 0.25f; b[i] = 1.0f / (i + 1); }
#pragma omp simd reduction(+ : s) safelen(8)
  for (int i = 0; i < 4096; i++) s += a[i] * b[i];
#pragma omp parallel for simd aligned(a : 32) reduction(+ : t) schedule(static)
  for (int i = 0; i < 4096; i++) t += a[i] - 1;  /* exact in any order */
#pragma omp parallel
  {
#pragma omp for simd
    for (int i = 0; i < 4096; i++) a[i] = a[i] * 2;
  }
  printf("%.6f %.6f %g\n", s, t, a[100]);
  return 0;
}
