/* #pragma omp lines in preprocessor-skipped blocks are not directives (their tokens are still in libclang's
   token stream); the directive of the taken branch is. */
#include <stdio.h>
int main(void) {
  double s = 0, a[1000];
  for (int i = 0; i < 1000; i++) a[i] = i * 0.5;
#if 0
#pragma omp parallel for ordered lastprivate(s)
#endif
#ifdef NOT_DEFINED
#pragma omp critical
#else
#pragma omp parallel for reduction(+ : s)
#endif
  for (int i = 0; i < 1000; i++) s += a[i];
  printf("%g\n", s);
  return 0;
}
