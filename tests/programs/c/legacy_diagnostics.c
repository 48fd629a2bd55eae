/* Old C that gcc 12 compiles with warnings and clang rejects by default: `return;` in a function returning
   int, an integer stored in a pointer and back, pointers of unrelated types mixed, and alloca called without
   <alloca.h> (an implicit declaration that still means the builtin). */
#include <stdio.h>
#include <string.h>

static int verbose;

int report(code) int code;
{
  if (!verbose)
    return;              /* no value: the caller ignores it */
  printf("code %d\n", code);
  return code;
}

static long checksum(unsigned char *p, int n) {
  long s = 0;
  while (n--)
    s = s * 33 + *p++;
  return s;
}

int main(void) {
  int words[4] = {0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10};
  char *bytes = words;                  /* incompatible pointer types */
  long where = bytes;                   /* pointer to integer */
  char *back = where;                   /* and back */
  char *scratch = alloca(64);           /* implicitly declared */
  strcpy(scratch, "legacy");
  report(1);
  verbose = 1;
  report(2);
  printf("%ld %d %s %d\n", checksum(back, 16), back == bytes, scratch, (int)strlen(scratch));
  int lo = 3, mid = 7, hi = 5;
  printf("%d %d\n", lo < mid < hi, hi > mid >= lo);  /* chained comparisons: (lo < mid) < hi */
  return 0;
}
