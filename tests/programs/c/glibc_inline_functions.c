/* What gcc predefines for the optimization level, and glibc's extern inline functions that __OPTIMIZE__ turns
   on: btowc/wctob call the library's symbol through an asm-labelled alias of their own name, bsearch takes a
   callback, vprintf passes a va_list on, getline/getc_unlocked/putchar work on FILE buffers, atof/atoi parse,
   tolower/toupper read the locale's tables. Built by gcc and pgcc at the same -O level with __OPTIMIZE__ defined,
   outputs compared. */
#define _GNU_SOURCE
#include <ctype.h>
#include <libintl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#ifndef __OPTIMIZE__
#include <locale.h> /* (optimized, <libintl.h> brings it, as with gcc: indent's LC_ALL) */
#endif

static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void report(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

static int level(void) {
    int n = 0;
#ifdef __OPTIMIZE__
    n |= 1;
#endif
#ifdef __OPTIMIZE_SIZE__
    n |= 2;
#endif
#ifdef __NO_INLINE__
    n |= 4;
#endif
    return n;
}

int main(int argc, char **argv) {
    setlocale(LC_ALL, "C");
    report("level bits %d, LC_ALL %s\n", level(), LC_ALL == LC_ALL ? "defined" : "?");
    int sorted[] = {2, 3, 5, 7, 11, 13, 17, 19, 23};
    for (int k = 0; k < 25; k += 5) {
        int *hit = bsearch(&k, sorted, sizeof sorted / sizeof *sorted, sizeof *sorted, by_value);
        report("bsearch %d -> %ld\n", k, hit ? (long)(hit - sorted) : -1L);
    }
    for (int c = 60; c < 130; c += 13) /* (a run-time value: the library's btowc, not the constant branch) */
        report("btowc(%d)=%ld wctob=%d\n", c + argc - 1, (long)btowc(c + argc - 1), wctob((wint_t)(c + argc - 1)));
    report("%d %ld %lld %.3f %c%c\n", atoi("-4711"), atol("2147483648"), atoll("-9007199254740993"),
           atof("6.02e23") / 1e23, toupper('m'), tolower('Q'));
    FILE *f = tmpfile();
    if (!f)
        return 1;
    fputs("alpha beta\n\ngamma\nlast line without newline", f);
    rewind(f);
    int first = getc_unlocked(f);
    putchar(first);
    putchar('|');
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0)
        report("[%zd:%.*s]", n, (int)strcspn(line, "\n"), line);
    report("\neof %d error %d equal %d\n", feof_unlocked(f) != 0, ferror_unlocked(f),
           pthread_equal(pthread_self(), pthread_self()) != 0);
    free(line);
    fclose(f);
    return 0;
}
