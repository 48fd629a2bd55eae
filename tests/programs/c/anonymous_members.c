#include <stdio.h>
struct S { int tag; union { int i; float f; }; struct { short a, b; }; } gs = {1, {5}, {7, 8}};
int main(void) {
  struct S s;
  s.tag = 2; s.i = 3; s.b = 9; s.a = 4;
  struct S *p = &s;
  printf("%d %d %d %d %d %d %zu\n", s.tag, s.i, p->a, p->b, gs.i, gs.b, sizeof s);
  return 0;
}
