/* Counted loops whose test compares in another type than the index (promoted narrow index, wider bound). */
#include <stdio.h>
#include <stdint.h>
int main(int argc, char **argv) {
  long n = argc + 4; long neg = -(1L << 40) + argc; int s = 0; unsigned u8c = 0;
  for (int i = 0; i < n; i++) s += i;
  for (int i = 0; i > neg && i < 3; i++) s += 100;
  for (int i = 5; i >= neg + (1L << 40); i--) s += 1000;
  int k; for (k = 0; k < n; k += 3) s += 7;
  for (uint8_t c = 250; c < 300 && u8c < 20; c++) u8c++;
  int64_t j; for (j = -3; j <= n; j++) s ^= (int)j;
  printf("%d %d %u %lld\n", s, k, u8c, (long long)j);
  return 0; }
