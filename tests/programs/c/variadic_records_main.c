/* Calls variadic_records_lib.c's variadic functions with struct parameters and results. */
#include <stdio.h>
typedef struct { int kind; int size; long u; } jv;
typedef struct { double re, im; } cpx;
typedef struct { char text[40]; int n; } big;
jv make_fmt(const char *fmt, ...);
big describe(big seed, int count, ...);
cpx sum_pairs(cpx first, int n, ...);
big pick_big(int skip, ...);
int main(void) {
  jv a = make_fmt("ddfx", 3, 4, 2.5);
  printf("%d %d %ld\n", a.kind, a.size, a.u);
  big b = {"hello", 1};
  cpx c1 = {1.5, 2}, c2 = {0.25, 7};
  big r = describe(b, 2, c1, c2);
  printf("%s %d\n", r.text, r.n);
  cpx s = sum_pairs(c1, 2, a, make_fmt("d", 40));
  printf("%g %g\n", s.re, s.im);
  big p1 = pick_big(0, b), p2 = pick_big(2, 1.0, 2.0, r);
  printf("%s %d %s %d\n", p1.text, p1.n, p2.text, p2.n);
  return 0;
}
