#include <stdio.h>
#include "abi.h"
long cb_sum(struct L3 s) { return s.a - s.b + s.c; }
struct Mix cb_mix(struct Mix m) { m.k += 1; m.v *= 3; return m; }
int main(void) {
  struct I2 a = i2_make(3, 4);
  printf("%d %d %d\n", a.a, a.b, i2_sum(a));
  struct D2 d = {1.5, -2.0};
  d = d2_scale(d, 3.0);
  printf("%g %g\n", d.x, d.y);
  struct Mix m = mix_make(7, 0.25);
  printf("%d %g %g\n", m.k, m.v, mix_use(m, 5));
  struct F3 f = {1, 2, 3}, g = {0.5f, 0.25f, 0.125f};
  struct F3 h = f3_add(f, g);
  printf("%g %g %g\n", h.a, h.b, h.c);
  struct C3 c = {{'x', 'y', 'z'}};
  c = c3_rot(c);
  printf("%c%c%c\n", c.c[0], c.c[1], c.c[2]);
  struct L3 l = l3_make(5);
  printf("%ld %ld %ld %ld\n", l.a, l.b, l.c, l3_sum(l, 1));
  printf("%ld\n", many(1, 2, 3, 4, 5, a, m, d));
  struct Bits b = bits_make(9, -20, 1000);
  printf("%u %d %u %d\n", b.lo, b.mid, b.hi, bits_sum(b));
  union Num n; n.d = 6.5;
  printf("%g\n", num_d(n));
  printf("%ld\n", cb_sum(l));
  struct Mix q = cb_mix(m);
  printf("%d %g\n", q.k, q.v);
  return 0;
}
