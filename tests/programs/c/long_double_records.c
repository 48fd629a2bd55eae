/* Records holding a long double by value: returned (a lone long double comes back in %st0), passed (in memory),
   through a variadic function's tail and read back with va_arg, and in a struct of several members. */
#include <stdarg.h>
#include <stdio.h>

typedef struct { long double v; } box;
struct P { long double x; };
struct mixed { int tag; long double weight; char name[4]; };

static box make(long double v) { box b = {v * 3}; return b; }
static box twice(box b) { b.v *= 2; return b; }
static struct mixed bump(struct mixed m, int by) { m.tag += by; m.weight /= by; m.name[0]++; return m; }

static long double total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double sum = 0;
  for (int i = 0; i < n; i++) {
    struct P p = va_arg(ap, struct P);
    sum += p.x * (i + 1);
  }
  va_end(ap);
  return sum;
}

int main(void) {
  box b = twice(make(1.25L));
  struct mixed m = bump((struct mixed){7, 10.0L, "abc"}, 4);
  struct P a = {0.5L}, c = {1.0L / 3};
  printf("%.18Lg\n", b.v);
  printf("%d %.18Lg %s\n", m.tag, m.weight, m.name);
  printf("%.18Lg\n", total(3, a, c, (struct P){2.0L}));
  return 0;
}
