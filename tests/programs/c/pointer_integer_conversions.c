/* Pointers and integers converted without a cast, as old C and compiler test suites write them: gcc 12 warns
   (-Wint-conversion) and converts; so must pgcc. A K&R definition called with a pointer, an int parameter given
   an address, an integer constant stored in a pointer, a pointer returned as a long. */
#include <stdio.h>
#include <stdint.h>

int old_style(a, b, c) int a; int b; double c; { return printf("old_style %d %d %.1f\n", a, b, c); }

static long as_long(long v) { return v * 2 + 1; }

static long address_of(char *p) { return p; }

struct slot { char *where; int tag; };

int main(int argc, char **argv) {
    old_style((void *)1, 2, 3.0);
    long v = as_long((void *)40);
    char *p = 4096;
    int *q = 0x10;
    struct slot s = {.where = 64, .tag = (char *)12};
    int small = (char *)7;
    printf("%ld %lx %lx %lx %d %d\n", v, (unsigned long)p, (unsigned long)q, (unsigned long)s.where, s.tag, small);
    char buf[8];
    long a = address_of(buf + 3), b = address_of(buf);
    printf("difference %ld, argc-as-pointer %d\n", a - b, (char *)(intptr_t)argc == (char *)argc);
    return 0;
}
