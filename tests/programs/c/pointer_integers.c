#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
struct N { int v; struct N *next; };
int main(void) {
  double *d = aligned_alloc(64, 64 * sizeof(double));
  uintptr_t a = (uintptr_t)d;
  printf("%d\n", (int)(a % 64));
  double *e = (double *)(a + 3 * sizeof(double));
  d[3] = 7.5;
  printf("%g %d\n", *e, e == d + 3);
  struct N n2 = {2, 0}, n1 = {1, &n2};
  uintptr_t x = (uintptr_t)&n1 ^ (uintptr_t)&n2;   /* xor-linked */
  struct N *back = (struct N *)(x ^ (uintptr_t)&n1);
  printf("%d %d\n", back->v, (int)((long)(&n1)->next == (long)&n2));
  free(d);
  return 0;
}
