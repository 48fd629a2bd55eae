#include "abi.h"
struct I2 i2_make(int a, int b) { struct I2 r = {a, b}; return r; }
int i2_sum(struct I2 s) { return s.a * 10 + s.b; }
struct D2 d2_scale(struct D2 s, double f) { s.x *= f; s.y *= f; return s; }
struct Mix mix_make(int k, double v) { struct Mix m = {k, v}; return m; }
double mix_use(struct Mix m, int extra) { return m.k + m.v + extra; }
struct F3 f3_add(struct F3 a, struct F3 b) { struct F3 r = {a.a + b.a, a.b + b.b, a.c + b.c}; return r; }
struct C3 c3_rot(struct C3 c) { struct C3 r = {{c.c[1], c.c[2], c.c[0]}}; return r; }
struct L3 l3_make(long a) { struct L3 r = {a, a * 2, a * 3}; return r; }
long l3_sum(struct L3 s, long extra) { return s.a + s.b + s.c + extra; }
long many(long a, long b, long c, long d, long e, struct I2 s, struct Mix m, struct D2 dd) {
  return a + b + c + d + e + s.a + s.b + m.k + (long)m.v + (long)dd.x + (long)dd.y;
}
int bits_sum(struct Bits b) { return b.lo + b.mid * 100 + b.hi * 10000; }
struct Bits bits_make(int lo, int mid, int hi) { struct Bits b; b.lo = lo; b.mid = mid; b.hi = hi; return b; }
double num_d(union Num n) { return n.d; }
