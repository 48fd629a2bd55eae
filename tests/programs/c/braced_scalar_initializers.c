/* Scalars initialized from a brace-enclosed single expression (C11 6.7.9p11), as compiler test suites and some
   older code write them: file-scope and block-scope ints, doubles and pointers, static locals, a pointer into a
   string literal, and a value computed at run time. */
#include <stdio.h>

int counter = { 5 };
double ratio = { 1.5 };
const char *tail = { "abcdef" + 2 };
static long big = { -1L };

static int next_id(void) {
    static int id = { 100 };
    return id++;
}

int main(int argc, char **argv) {
    char *pa2 = { "xyz" + 1 };
    int n = { argc * 7 };
    double d = { ratio * n };
    unsigned char small = { 300 };
    int *p = { &counter };
    *p += n;
    printf("%s %s %d %.2f %u %ld\n", pa2, tail, counter, d, small, big);
    int a = next_id(), b = next_id();
    printf("%d %d\n", a, b);
    return 0;
}
