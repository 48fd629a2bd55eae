/* Built with -funsigned-bitfields (gcc.dg/bitfld-9.c): bit-fields of plain integer types, also through typedefs,
   are unsigned; those written `signed` (themselves or in their typedef) and enums keep their signedness. */
#include <stdio.h>
#include <string.h>

typedef int plain_int;
typedef plain_int plain_again;
typedef signed int signed_int;
typedef signed_int signed_again;
typedef char plain_char;
enum mood { SAD = -1, OK = 1 };

struct fields {
  char c : 3;
  plain_char pc : 2;
  signed char sc : 3;
  short s : 5;
  signed short ss : 5;
  int i : 7;
  plain_int pi : 4;
  plain_again pa : 4;
  signed int si : 4;
  signed_int sti : 4;
  signed_again sta : 4;
  long l : 9;
  long long ll : 11;
  signed long long sll : 11;
  unsigned u : 6;
  enum mood m : 2;
};

int main(void) {
  struct fields x;
  memset(&x, 0xff, sizeof x);
  printf("%d %d %d %d %d %d %d %d %d %d %d\n", x.c, x.pc, x.sc, x.s, x.ss, x.i, x.pi, x.pa, x.si, x.sti, x.sta);
  printf("%ld %lld %lld %u %d\n", (long)x.l, (long long)x.ll, (long long)x.sll, x.u, (int)x.m);
  x.i = -5;
  x.pi = -1;
  x.si = -1;
  x.l = -2;
  x.m = SAD;
  printf("%d %d %d %ld %d neg %d %d %d\n", x.i, x.pi, x.si, (long)x.l, (int)x.m, x.i < 0, x.si < 0, x.m < 0);
  printf("%d %d %d\n", x.i / 3, x.pi * -2, (x.s + x.ss) >> 1);
  return 0;
}
