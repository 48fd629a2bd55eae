/* Remainders by a divisor that may be zero, reached only after a call that may not return or behind a test in
   a loop (an interpreter's `%` guarded by its error path): never computed before the guard ran (a loop-invariant
   `x % y` hoisted above it divides by zero). */
#include <stdio.h>
#include <stdlib.h>

volatile int numerator = 17, zero = 0, seven = 7;
static int steps;

static void tick(int i, int divisor) {
  steps++;
  if (divisor == 0 && i >= 0) {
    printf("stopped at %d after %d steps\n", i, steps);
    exit(0);
  }
}

static long guarded(int x, int y, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    if (y != 0)
      s += x % y + i;
  return s;
}

int main(void) {
  int x = numerator, y = zero, z = seven;
  unsigned ux = 40u, uz = 6u;
  long r = 0;
  printf("%ld %ld %u\n", guarded(x, y, 50), guarded(x, z, 50), ux % uz);
  for (int i = 0; i < 100; i++) {
    tick(i, y);
    r += i + x % y;
  }
  printf("not reached %ld\n", r);
  return 1;
}
