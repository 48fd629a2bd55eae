/* long double (x87 80-bit extended in 16 bytes on x86-64): literals rounded once from their text, constant
   folding in initializers, <float.h> limits, arithmetic and conversions, arrays and pointers, libm's `l` forms
   and builtins, classification macros, by-value records in memory, and va_arg. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TENTH 0.1L
typedef struct { const char *name; long double weight; int count; } entry;  /* 48 bytes: passed in memory */

static const long double table[5] = {TENTH, -2.5L, 1e300L * 1e300L / 7, 3, 0x1.8p-3L};
static long double third = 1.0L / 3;
long double shared_limits[3] = {LDBL_MAX, LDBL_MIN, LDBL_EPSILON};

static long double total(const long double *v, int n) {
    long double s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

static entry doubled(entry e) { e.weight *= 2; e.count++; return e; }

static long double sum_args(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long double s = 0;
    while (n--) s += va_arg(ap, long double);
    va_end(ap);
    return s;
}

static int by_value(const void *a, const void *b) {
    long double x = *(const long double *)a, y = *(const long double *)b;
    return (x > y) - (x < y);
}

/* the stored bytes of a long double (its 10 significant ones), to compare exact values */
static void bytes(const char *what, long double v) {
    unsigned char b[sizeof v];
    memcpy(b, &v, sizeof v);
    printf("%s", what);
    for (int i = 9; i >= 0; i--) printf("%02x", b[i]);
    printf("\n");
}

/* special values in a static table: NaN, infinities and -0 as the FPU holds them (bytes and comparisons) */
static const long double specials[] = {__builtin_nan(""), -__builtin_inf(), 1.5L, __builtin_infl(), -__builtin_nanl(""),
                                       -0.0L, 1.0L / 0.0L - 1.0L / 0.0L, -1.0L / 0.0L};

int main(void) {
    long double local[5] = {5, 4.25L, 3, 0.3L, 1};
    qsort(local, 5, sizeof local[0], by_value);
    unsigned long long big = 18446744073709551615ULL;
    long double wide = big;
    entry e = {"w", 0.7L, 1}, r = doubled(e);
    long double *heap = malloc(3 * sizeof *heap);
    for (int i = 0; i < 3; i++) heap[i] = i / 7.0L;
    bytes("tenth ", table[0]);
    bytes("folded ", table[2]);
    bytes("third ", third);
    bytes("max ", shared_limits[0]);
    bytes("min ", shared_limits[1]);
    bytes("eps ", shared_limits[2]);
    bytes("hex ", table[4]);
    printf("%.20Lg %.20Lg %llu %d\n", total(local, 5), local[0] + local[4], (unsigned long long)wide,
           wide == 18446744073709551615.0L);
    printf("%.20Lg %d %.20Lg\n", r.weight, r.count, sum_args(3, 1.0L, 2.5L, heap[1]));
    printf("%.20Lg %.20Lg %.20Lg %d\n", sqrtl(2), fabsl(-table[1]), powl(2.0L, 0.5L), (int)(-7.9L));
    long double z = -0.0L, n = __builtin_nanl(""), inf = __builtin_infl(), tiny = LDBL_MIN / 4;
    printf("%d %d %d %d %d\n", signbit(z) != 0, isnan(n), isinf(-inf), HUGE_VALL == inf,
           fpclassify(tiny) == FP_SUBNORMAL);
    printf("%d %d %d %.20Lg %.20Lg\n", isnormal(LDBL_MIN), isnormal(tiny), isfinite(LDBL_MAX),
           __builtin_fabsl(-3.25L), __builtin_sqrtl(9));
    double d = 0.1;
    long double x = d;
    float f = (float)x;
    printf("%.20Lg %.9g %d %d\n", x, f, x == TENTH, (double)TENTH == d);
    for (int i = 0; i < 8; i++) {
        const unsigned char *bytes = (const unsigned char *)&specials[i];
        for (int k = 9; k >= 0; k--)
            printf("%02x", bytes[k]);
        printf(" %d %d\n", specials[i] == specials[i], specials[i] > 0);
    }
    free(heap);
    return 0;
}
