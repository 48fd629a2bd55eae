/* Conditions clang folds to constants: only the branch taken is emitted, as gcc and clang do even at -O0, so the
   calls of the undefined link_error() in the others never reach the linker (gcc.dg/builtin-bswap-5.c); a
   branch a case label enters is kept, and conditions with side effects are evaluated. */
#include <stdio.h>
extern void link_error(void);
int g;
static int side(void) { return ++g; }
int main(int argc, char **argv) {
  int k = 0;
  if (__builtin_bswap32(0x11223344) != 0x44332211) link_error();
  if (sizeof(long) == 8) k += 1; else link_error();
  if (0) { link_error(); }
  if ((g = 5, 0)) k += 100;
  if (side() && 0) k += 1000;
  switch (argc) {
    case 1:
      if (0) {
    case 2:
        k += 10;
      }
      k += 20;
  }
  for (int i = 0; i < 3; i++) {
    if (1) { if (i == 1) continue; k += 2; } else link_error();
    if (__builtin_constant_p(i)) k += 500;
  }
  printf("%d %d\n", k, g);
  return 0;
}
