/* File-scope initializers that hold addresses: a braced string for a char array, pointers to globals, to
   array elements and past the end, tables of records with names, pointers and functions (variadic too). */
#include <stdarg.h>
#include <stdio.h>

static char Output[] = {"out.bin"};
static const char *output = Output;
int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int *mid = &table[4];
int *end = table + 8;
static int g = 5;
static int *pg = &g;
static int twice(int x) { return 2 * x; }
static int vtotal(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    while (n--) s += va_arg(ap, int);
    va_end(ap);
    return s;
}
struct entry { const char *name; int *val; int (*fn)(int); int (*vfn)(int, ...); };
static struct entry entries[] = {{"g", &g, twice, vtotal}, {Output, table + 1, 0, 0}};
const char *names[] = {"a", Output, 0};
double dv[3] = {1.5}, *pd = dv + 1;
static char *unset = (char *)-1;  /* addresses given as numbers: sentinels */
static const long *page = (const long *)0x1000;

int main(void) {
    printf("%s %d %d %d %s %d\n", output, *mid, end[-1], *pg, entries[0].name, *entries[1].val);
    printf("%d %d %s %s %g %d\n", entries[0].fn(21), entries[0].vfn(3, 1, 2, 3), entries[1].name, names[1],
           pd[-1], names[2] == 0);
    printf("%d %d %lx\n", unset == (char *)-1, unset + 1 == 0, (unsigned long)(page + 2));
    return 0;
}
