/* Structs and unions through `...`: passed as named arguments would be (eightbytes in integer and SSE
   registers while they last, in memory beyond 16 bytes or when registers run out) and read back with va_arg.
   Build with -DONLY_CALLEE or -DONLY_CALLER to put the two sides in different objects (and compilers). */
#include <stdarg.h>
#include <stdio.h>

struct ints { int a, b; long c; };          /* INTEGER, INTEGER */
struct dbls { double x, y; };               /* SSE, SSE */
struct mixed { float f; int i; double d; }; /* INTEGER (f and i share an eightbyte), SSE */
struct tiny { char c; };
struct odd { short s[3]; char t[3]; };      /* 9 bytes: two INTEGER eightbytes */
struct big { double v[3]; long n; };        /* 32 bytes: memory */
union u { double d; long l; };

double total(int n, ...);

#ifndef ONLY_CALLER
double total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int k = 0; k < n; k++) {
    int kind = va_arg(ap, int);
    switch (kind) {
    case 0: { struct ints s = va_arg(ap, struct ints); t += s.a * 3 + s.b * 5 + s.c; break; }
    case 1: { struct dbls s = va_arg(ap, struct dbls); t += s.x * 0.5 + s.y; break; }
    case 2: { struct mixed s = va_arg(ap, struct mixed); t += s.f + s.i * 7 + s.d; break; }
    case 3: { struct tiny s = va_arg(ap, struct tiny); t += s.c; break; }
    case 4: { struct odd s = va_arg(ap, struct odd); t += s.s[0] + s.s[2] * 2 + s.t[1] * 3; break; }
    case 5: { struct big s = va_arg(ap, struct big); t += s.v[0] + s.v[2] + s.n; break; }
    case 6: { union u s = va_arg(ap, union u); t += (double)(s.l & 0xffff); break; }
    default: t += va_arg(ap, double);
    }
  }
  va_end(ap);
  return t;
}
#endif

#ifndef ONLY_CALLEE
int main(void) {
  struct ints i = {1, 2, 30};
  struct dbls d = {1.5, -2.25};
  struct mixed m = {0.5f, 4, 8.125};
  struct tiny c = {'A'};
  struct odd o = {{1, 2, 3}, {4, 5, 6}};
  struct big b = {{1.0, 2.0, 3.5}, 10};
  union u un;
  un.l = 0x12345;
  printf("%.3f\n", total(3, 0, i, 1, d, 2, m));
  printf("%.3f\n", total(4, 3, c, 4, o, 5, b, 6, un));
  /* enough arguments to run out of integer and SSE registers: the rest go in memory */
  printf("%.3f\n", total(9, 0, i, 0, i, 0, i, 1, d, 1, d, 1, d, 1, d, 2, m, 7, 0.75));
  printf("%.3f\n", total(6, 5, b, 2, m, 5, b, 4, o, 3, c, 0, i));
  return 0;
}
#endif
