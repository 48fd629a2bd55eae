/* -fno-builtin-abs / -fno-builtin: library functions that the program's own wrong11_no_builtin_lib.c defines
   (counting its calls) are called as written, constant arguments included, as gcc calls them under those
   flags. */
#include <stdio.h>

int abs(int);
long labs(long);
double fabs(double);
extern int abs_calls, fabs_calls;

int main(void) {
  volatile int v = -9;
  int a = abs(-3) + abs(v) + abs(4);
  long l = labs(-12L);
  double f = fabs(-2.5);
  printf("%d %ld %g abs calls %d fabs calls %d\n", a, l, f, abs_calls, fabs_calls);
  return 0;
}
