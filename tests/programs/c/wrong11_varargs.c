/* va_arg with a typeof type name, and structs of size 0 (GNU C) among the arguments of variadic and ordinary
   functions: gcc passes such a struct in no register and no stack slot, so the arguments after it must be
   where the callee looks for them. */
#include <stdarg.h>
#include <stdio.h>

typedef struct { char x[0]; } empty0;
struct nothing {};
typedef struct { char x[3]; } bytes3;
typedef struct { char x[9]; } bytes9;
typedef struct { char x[16]; } bytes16;
typedef struct { char x[21]; } bytes21;

static int digest(const char *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s = s * 31 + p[i];
  return s;
}

static long spread(int count, ...) {
  va_list ap;
  va_start(ap, count);
  long acc = 0;
  for (int round = 0; round < count; round++) {
    empty0 z = va_arg(ap, empty0);
    bytes3 a = va_arg(ap, typeof(a));
    int k = va_arg(ap, __typeof__(k + 0));
    bytes9 b = va_arg(ap, bytes9);
    struct nothing e = va_arg(ap, struct nothing);
    bytes16 c = va_arg(ap, typeof(c));
    bytes21 d = va_arg(ap, bytes21);
    double f = va_arg(ap, typeof(1.0));
    (void)z;
    (void)e;
    acc = acc * 7 + digest(a.x, 3) + k + digest(b.x, 9) + digest(c.x, 16) + digest(d.x, 21) + (long)(f * 4);
  }
  int last = va_arg(ap, int);
  va_end(ap);
  return acc * 10 + last;
}

static int named(int a, empty0 z, int b, struct nothing e, int c, int d, int g, int h, int i, bytes9 t) {
  (void)z;
  (void)e;
  return a * 1000000 + b * 100000 + c * 10000 + d * 1000 + g * 100 + h * 10 + i + digest(t.x, 9);
}

int main(void) {
  empty0 z;
  struct nothing e;
  bytes3 a;
  bytes9 b;
  bytes16 c;
  bytes21 d;
  for (int i = 0; i < 21; i++) {
    if (i < 3) a.x[i] = (char)(i ^ 24);
    if (i < 9) b.x[i] = (char)(i ^ 72);
    if (i < 16) c.x[i] = (char)(i * 5 + 1);
    d.x[i] = (char)(i * 3 - 20);
  }
  printf("%ld\n", spread(1, z, a, 11, b, e, c, d, 2.25, 99));
  printf("%ld\n", spread(2, z, a, 11, b, e, c, d, 2.25, z, a, -4, b, e, c, d, -0.5, 77));
  printf("%d %d\n", named(1, z, 2, e, 3, 4, 5, 6, 7, b), (int)sizeof(empty0) + (int)sizeof(struct nothing));
  return 0;
}
