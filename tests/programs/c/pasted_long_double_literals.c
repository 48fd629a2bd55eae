/* Long double literals whose `L` suffix a macro pastes on (gnulib's tests: `#define L_(x) x##L`): the pasted
   token is spelled in no file, so pgcc reads the macro's argument. */
#include <stdio.h>
#define L_(literal) literal##L
#define TWICE(x) (2 * x##L)
#define HALF(x) (x##L / 2)
static long double table[] = { L_(0.5), L_(1.01), L_(0.866025), L_(1.73205), L_(20.0) };
int main(void) {
  long double a = L_(0.1), b = L_(0.0), c = L_(3.1415926535897), d = L_(0x1.8p3);
  long double e = TWICE(0.3), f = L_(1e-4930), g = L_(1.5e300) * L_(1e10), h = HALF(0.7);
  printf("%.25Lg %.25Lg %.25Lg %.25Lg\n", a, b, c, d);
  printf("%.25Lg %.25Lg %.25Lg %.25Lg\n", e, f, g, h);
  for (int i = 0; i < 5; i++)
    printf("%d %.25Lg %d\n", i, table[i], table[i] == (long double)(double)table[i]);
  printf("%d %d\n", L_(0.1) == 0.1, L_(0.5) == 0.5);
  return 0;
}
