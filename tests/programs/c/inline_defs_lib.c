/* The file of the program that holds the external definitions of inline_defs.h's inline functions. */
#define COUNTER_INLINE extern inline
#define DEFINE_TRIPLED
#include "inline_defs.h"

int tripled(int x) { return 3 * x; }

int inline_defs_user(int n) {
  int acc = local_seed();
  for (int i = 0; i < n; i++)
    acc = (int)clamp_add(acc, scaled(i, 3), 1000) + tripled(i);
  return acc;
}
