/* C99/C11 idioms: designators in any order and nested (also after the last member), compound literals (also at
   file scope), flexible array members, VLAs, _Static_assert, _Alignof/alignas, _Generic, offsetof, attributes
   that do not change meaning, block-scope prototypes and unions. */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdalign.h>
struct point { int x, y; };
struct flex { int n; double v[]; };
struct opts { const char *name; int level; struct point at; int tags[4]; };
static struct opts defaults = {.level = 3, .name = "std", .tags = {[2] = 9, [0] = 1}, .at.y = 4};
static int *primes = (int[]){2, 3, 5, 7};
static struct { int a; alignas(16) char buf[4]; } aligned;
static int sparse[10] = {[3] = 1, [7] = 2, [9] = 3};
_Static_assert(sizeof(struct point) == 8, "point");
#define kind(x) _Generic((x), int: "int", double: "double!", char *: "string", default: "other")
static int sum_points(const struct point *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i].x * p[i].y; return s; }
__attribute__((noinline, unused)) static int helper(int x) { return x + 1; }
static inline int __attribute__((always_inline)) sq(int x) { return x * x; }
int main2(void);
int main(void) {
    struct point *p = &(struct point){3, 4};
    int s = sum_points((struct point[]){{1, 2}, {3, 4}, {5, 6}}, 3);
    struct flex *f = malloc(sizeof *f + 3 * sizeof(double));
    f->n = 3; for (int i = 0; i < 3; i++) f->v[i] = i * 1.5;
    int n = 5;
    double vla[n];
    int (*m)[n] = malloc(3 * n * sizeof(int));
    for (int i = 0; i < n; i++) vla[i] = i;
    m[2][4] = 7;
    printf("%d %d %d %g %zu %zu\n", p->x, p->y, s, f->v[2], (size_t)40, (size_t)60);
    printf("%s %d %d %d %d %d\n", defaults.name, defaults.level, defaults.at.y, defaults.tags[0], defaults.tags[2], sparse[7]);
    printf("%s %s %s %zu %zu\n", kind(1), kind(2.0), kind((char *)0), _Alignof(double), offsetof(struct opts, at));
    printf("%d %d %d\n", helper(1), sq(5), m[2][4]);
    int local[6] = {[4] = 8, 1, [1] = 2};
    printf("%d %d %d\n", local[1], local[4], local[5]);
    struct point q = (struct point){.y = 9};
    printf("%d %d\n", q.x, q.y);
    free(f); free(m);
    return main2();
}

int twice_of(int x) { int helper2(int); union u { int i; float f; } w; w.i = x; return helper2(w.i); }
int helper2(int x) { return 2 * x; }
int main2(void) {
    _Static_assert(sizeof(int) == 4, "int");
    int total = 0;
    for (int i = 0; i < 4; i++) total += primes[i];
    printf("%d %zu %zu %d\n", total, _Alignof(aligned), sizeof aligned, twice_of(21));
    return 0;
}
