#include <stdio.h>
struct B { int c:5; unsigned u:3; int w:12; _Bool f:1; unsigned long long big:50; };
int main(void) {
  struct B b = {0};
  int r1 = (b.c = 100);
  unsigned r2 = (b.u = 13);
  int r3 = ++b.c;
  int r4 = (b.w += 3000);
  int r5 = b.u++;
  b.f = 2;
  long long r6 = (b.big = -1);
  printf("%d %u %d %d %d %d %d %u %d %llu %lld\n", r1, r2, r3, r4, r5, b.c, b.w, b.u, b.f, b.big, r6);
  return 0;
}
