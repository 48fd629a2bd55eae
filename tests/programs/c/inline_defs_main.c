/* Uses inline_defs.h's inline functions; their external definitions are in inline_defs_lib.c. */
#include <stdio.h>
#include "inline_defs.h"

int main(void) {
  int (*f)(int, int) = scaled;  /* the address: the external definition's */
  printf("%d %d %ld %d %d\n", scaled(4, 5), f(2, 2), clamp_add(900, 200, 1000), tripled(7), local_seed());
  printf("%d %d\n", inline_defs_user(20), plus_three(39));
  return 0;
}
