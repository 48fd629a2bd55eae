/* GNU's __builtin_choose_expr as an lvalue (assigned, incremented) and as the function a call
   names (gcc.dg/builtin-choose-expr.c): the chosen operand, the other never evaluated. */
#include <stdio.h>

struct pair { int x, y; };
static int calls;
static int good(int k) { calls++; return k * 3; }
static int bad(int k) { calls += 100; return -k; }

int main(void) {
  struct pair sugar = { 1, 2 }, pour = { 68, 69 };
  float f = 0;
  int n = 5;
  __builtin_choose_expr(0, bad(1), sugar) = pour;
  __builtin_choose_expr(sizeof(int) == 4, f, n) = 3.5F;
  __builtin_choose_expr(1, n, f) += 10;
  int r = __builtin_choose_expr(1, good, bad)(7);
  printf("%d %d %g %d %d %d\n", sugar.x, sugar.y, f, n, r, calls);
  return 0;
}
