#include <stdio.h>
struct L3 { long a, b, c; };
struct M { int k; double v; };
static struct L3 twice(struct L3 s, long e) { s.a *= 2; s.b *= 2; s.c = s.c * 2 + e; return s; }
static struct M bump(struct M m) { m.k++; m.v += 0.5; return m; }
struct Vt { struct L3 (*op)(struct L3, long); struct M (*mop)(struct M); };
int main(void) {
  struct Vt vt = {twice, bump};
  struct L3 x = {1, 2, 3};
  struct L3 y = vt.op(x, 10);
  struct M m = {1, 1.0};
  struct M n = (*vt.mop)(m);
  printf("%ld %ld %ld %d %g\n", y.a, y.b, y.c, n.k, n.v);
  return 0;
}
