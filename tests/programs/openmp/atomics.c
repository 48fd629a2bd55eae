/* #pragma omp atomic in parallel loops: updates of array elements and globals (atomic read-modify-writes),
   and of shared scalar locals (combined like reductions). */
#include <stdio.h>
int hist[16];
int main(void) {
  double sum = 0; long cnt = 0; int data[10000]; float f[4] = {0};
  for (int i = 0; i < 10000; i++) data[i] = (i * 7919) % 1000;
#pragma omp parallel for
  for (int i = 0; i < 10000; i++) {
    int b = data[i] % 16;
#pragma omp atomic
    hist[b]++;
#pragma omp atomic update
    sum += data[i] * 0.5;
#pragma omp atomic
    cnt += data[i] > 500;
#pragma omp atomic
    f[i % 4] -= 1.0f;
  }
  int tot = 0;
  for (int b = 0; b < 16; b++) tot += hist[b] * (b + 1);
  printf("%d %.1f %ld %g %d\n", tot, sum, cnt, f[3], hist[5]);
  return 0;
}
