/* Statement attributes that are hints (loop pragmas, fallthrough) and const-qualified integer constants used
   as loop bounds and sizes. */
#include <stdio.h>

const int N = 30;
static const long M = -7;
const unsigned char SMALL = 200;
const unsigned long long HUGE_U = 18446744073709551615ULL;  /* beyond int64: folded as its bit pattern */
const unsigned int BIG_U = 4000000000u;
const int table[3] = {1, 2, 3};
enum { K = 4 };

int main(void) {
  int s = 0;
#pragma GCC unroll 4
  for (int i = 0; i < N; i++) s += i * K + table[i % 3];
#pragma unroll
  for (int i = 0; i < 3; i++) s -= SMALL / (i + 1);
  switch (s % 4) {
  case 0: s += 1; __attribute__((fallthrough));
  case 1: s += 10; break;
  default: s -= 1;
  }
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i * 0.5;
  printf("%d %ld %g %d\n", s, M * N, a[N - 1], (int)sizeof(table));
  printf("%llu %u %d\n", HUGE_U, BIG_U, HUGE_U > BIG_U);
  return 0;
}
