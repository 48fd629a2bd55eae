/* Parameters declared as arrays are pointers (C11 6.7.6.3p7): argv-style walking, arithmetic, comparison with
   NULL, reassignment, arrays of rows. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

static int lengths(char *names[], int n) {
    int total = 0;
    while (n-- > 0) {
        total += (int)strlen(*names);
        names++;
    }
    return total;
}

static double sum4(double a[4]) {
    double s = 0;
    for (int i = 0; i < 4; i++) s += *a++;
    return s;
}

static int is_null(int a[]) { return a == NULL; }
static int first_or(int a[], int *fallback) { if (!a) a = fallback; return a[0]; }
static long span(int a[], int b[]) { return b - a; }
static int third(int a[]) { int *q = a + 2; return *q + *(a + 1) + (a + 3)[0]; }
static void count_down(double a[], int n) { double *end = a + n; while (a < end) *a++ = n--; }
static const char *pick(const char *names[], int k) { names += k; return *names; }
static void drop(char *args[], int n, int at) { memmove(args + at, args + at + 1, (n - at - 1) * sizeof(char *)); }
/* The address of an array parameter is the address of a pointer (lzo's `&argv` to an option parser). */
static int shift_args(int *pargc, char ***pargv) { (*pargv)++; return --*pargc; }
static int through_address(int a[4]) { int **pa = &a; int s = a[1] + (*pa)[2]; (*pa)++; return s + a[0]; }
static double row_through_address(double m[3][2]) { double (**pm)[2] = &m; (*pm)++; return m[1][1] + (*pm)[0][0]; }
static int rows(int m[][3], int n) { int s = 0; for (; n > 0; n--, m++) s += m[0][0] * m[0][2]; return s; }

int main(int argc, char *argv[]) {
    char *words[] = {"ab", "cde", "f"};
    const char *names[] = {"x", "yy", "zzz"};
    double d[4] = {1, 2, 3, 4.5};
    int v[5] = {1, 2, 3, 4, 5}, w = 42, m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    char **given = argv;
    int left = shift_args(&argc, &argv);
    double g[3][2] = {{1, 2}, {3, 4}, {5, 6}};
    int shifted = left == argc && argv == given + 1;
    while (argc > 0 && argv[0][0] == '-') {
        printf("option %s\n", *argv);
        argv++;
        argc--;
    }
    printf("%d %d %.0f\n", shifted, through_address(v), row_through_address(g));
    printf("%d %.1f %d %d %d %d\n", lengths(words, 3), sum4(d), is_null(NULL), is_null(v), first_or(NULL, &w),
           first_or(v, &w));
    drop(words, 3, 0);
    printf("%s %s\n", words[0], words[1]);
    count_down(d, 3);
    printf("%ld %d %.0f %.0f %.0f %s %d %s\n", span(v, v + 4), third(v), d[0], d[1], d[2], pick(names, 2),
           rows(m, 2), argc ? *argv : "-");
    return 0;
}
