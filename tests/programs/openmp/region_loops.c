/* A parallel region of several worksharing loops (one with nowait, one with a reduction) and variables
   declared in the region (private to each thread). */
#include <stdio.h>
#define N 2000
double a[N], b[N], c[N];
int main(void) {
  double s = 0;
  for (int i = 0; i < N; i++) a[i] = i * 0.5;
#pragma omp parallel
  {
    int i;
    double t;
#pragma omp for
    for (i = 0; i < N; i++) { t = a[i] * 2; b[i] = t + 1; }
#pragma omp for nowait
    for (i = 1; i < N - 1; i++) c[i] = b[i - 1] + b[i + 1];
#pragma omp for reduction(+ : s)
    for (i = 0; i < N; i++) s += b[i];  /* (not c: the loop before it ends with nowait) */
  }
  printf("%.1f %.1f %.1f\n", b[10], c[10], s);
  return 0;
}
