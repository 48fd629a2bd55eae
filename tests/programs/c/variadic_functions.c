/* Variadic function definitions as libraries write them: a logger over vsnprintf, a sum over a count, a
   type-directed reader that restarts its list, va_copy, variadic functions through pointers and tables. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int total(int n, ...);  /* declared, called, then defined */
static int first_use(void) { return total(3, 10, 20, 30); }

static char log_buf[256];
static int log_len;

static int vlog_append(const char *fmt, va_list ap) {
    int r = vsnprintf(log_buf + log_len, sizeof log_buf - log_len, fmt, ap);
    if (r > 0) log_len += r;
    return r;
}

int log_append(const char *restrict fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vlog_append(fmt, ap);
    va_end(ap);
    return r;
}

int total(int n, ...) {
    va_list ap;
    int s = 0;
    va_start(ap, n);
    while (n-- > 0) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

/* kinds: d double, i int, l long long, s string (its length), p pointer (its pointee), z size_t */
static double weigh(const char *kinds, ...) {
    va_list ap, again;
    double s = 0;
    va_start(ap, kinds);
    va_copy(again, ap);
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'd': s += va_arg(ap, double); break;
        case 'i': s += va_arg(ap, int); break;
        case 'l': s += (double)va_arg(ap, long long); break;
        case 's': s += (double)strlen(va_arg(ap, const char *)); break;
        case 'p': s += *va_arg(ap, double *); break;
        case 'z': s += (double)va_arg(ap, size_t); break;
        }
    }
    va_end(ap);
    if (*kinds == 'i') s += 1000.0 * va_arg(again, int); /* the copy starts where ap was copied */
    va_end(again);
    va_start(ap, kinds); /* a second va_start restarts the list */
    if (*kinds == 'i') s += 1e6 * va_arg(ap, int);
    va_end(ap);
    return s;
}

static long max_of(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long m = va_arg(ap, long);
    for (int i = 1; i < n; i++) {
        long v = va_arg(ap, long);
        if (v > m) m = v;
    }
    va_end(ap);
    return m;
}

/* many arguments: past the six integer and eight SSE registers, onto the stack */
static double mixed(int n, ...) {
    va_list ap;
    double s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) s += (i % 2 ? va_arg(ap, double) : va_arg(ap, int)) * (i + 1);
    va_end(ap);
    return s;
}

/* a va_list parameter read with va_arg (the v* form of a library's formatter), types through typedefs */
typedef long long wide;
static long vtally(const char *fmt, va_list argp) {
    long k = 0;
    for (; *fmt; fmt++) {
        if (*fmt == 'w') k += (long)va_arg(argp, wide);
        else if (*fmt == 's') k += (long)strlen(va_arg(argp, char *));
        else k += va_arg(argp, int);
    }
    return k;
}
static long tally(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    long k = vtally(fmt, ap);
    va_end(ap);
    return k;
}

typedef int (*summer)(int, ...);
struct op { const char *name; summer fn; };

int main(void) {
    double x = 2.25;
    struct op ops[] = {{"total", total}};
    summer f = total;
    printf("%d %d %d %d\n", first_use(), f(2, 5, 6), ops[0].fn(1, 9), total(0));
    printf("%.3f\n", weigh("idlspz", 7, 1.5, 1LL << 40, "hello", &x, (size_t)12));
    printf("%ld %ld %ld\n", max_of(4, 3L, -1L, 77L, 5L), max_of(1, -8L), tally("wsi", 1LL << 35, "four", 3));
    printf("%.2f\n", mixed(20, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5));
    log_append("%s=%d;", "a", 1);
    log_append("%s=%.1f;", "b", 2.5);
    log_append("%c%c%c", 'x', 'y', 'z');
    printf("%s (%d)\n", log_buf, log_len);
    return 0;
}
