/* `#pragma omp parallel for` forms and clauses; the output does not depend on the number of threads
   (reductions over values whose sums are exact, or printed to 6 digits). */
#include <stdio.h>
#include <omp.h>
#include <math.h>
#define N 37
#define M 23
double A[N][M], B[N][M];
int main(void) {
  double x[N], y[N];
  int i, j;
  double t, mx = -1e300, mn = 1e300, prod = 1.0;
  int isum = 3, imax = -5;
  unsigned bits = 0;
  double start = omp_get_wtime();
  for (i = 0; i < N; i++) x[i] = sin(i * 0.3) + 0.5;
  #pragma omp parallel for private(j, t) shared(A, x) schedule(dynamic, 4)
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++) {
      t = x[i] * j;
      A[i][j] = t * t;
    }
  }
  #pragma omp parallel
  {
    #pragma omp for collapse(2) schedule(static) nowait
    for (int a = 0; a < N; a++)
      for (int b = M - 1; b >= 0; b -= 2)
        B[a][b] = A[a][b] + a - b;
  }
  double scale = 2.0;
  #pragma omp parallel for firstprivate(scale) reduction(max:mx) reduction(min:mn) reduction(*:prod)
  for (i = 0; i < N; i++) {
    double v = x[i] * scale;
    if (v > mx) mx = v;
    mn = v < mn ? v : mn;
    prod *= 1.0 + v / 100;
    y[i] = v;
  }
  #pragma omp parallel for reduction(+:isum) reduction(max:imax) reduction(|:bits)
  for (i = N - 1; i >= 0; i--) {
    isum += i;
    if (i * 7 % 11 > imax) imax = i * 7 % 11;
    bits |= 1u << (i % 32);
  }
  int nt = 0;
  #pragma omp parallel for
  for (i = 0; i < N; i++) {
    if (omp_get_thread_num() >= omp_get_num_threads()) y[i] = -1;
  }
  /* continue in the body, a firstprivate scalar only read, a decreasing loop with a step of 3 */
  int cnt[N];
  int base = 100;
  #pragma omp parallel for firstprivate(base) default(shared) proc_bind(close)
  for (int k = N - 1; k >= 0; k -= 3) {
    cnt[k] = 0;
    if (k % 2) continue;
    cnt[k] = base + k;
  }
  for (int k = N - 1; k >= 0; k -= 3) nt += cnt[k];
  double s = 0;
  for (i = 0; i < N; i++) for (j = 0; j < M; j++) s += A[i][j] + B[i][j];
  for (i = 0; i < N; i++) s += y[i];
  printf("%.6f %.6f %.6f %.9f %d %d %u %d %d\n", s, mx, mn, prod, isum, imax, bits, omp_get_wtime() >= start, nt);
  return 0;
}
