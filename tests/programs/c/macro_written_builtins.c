/* GNU builtins and keywords that reach the compiler through macros, as library headers write them:
 * `sizeof` of a variable-length array, `__builtin_choose_expr`, `__atomic_*`, `?:`, case ranges and
 * range designators and loop hints (_Pragma) inside macro bodies. */
#include <stdio.h>
#include <stddef.h>

#define ARRAY_BYTES(x) sizeof(x)
#define PICK(c, a, b) __builtin_choose_expr(c, a, b)
#define REF_INC(p) __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST)
#define REF_GET(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define OR_ELSE(a, b) ((a) ?: (b))
#define DIGIT_CASES case '0' ... '9'
#define FILL(lo, hi) [lo ... hi] =
#define PRAGMA(x) _Pragma(#x)
#define UNROLL_BY_4 _Pragma("GCC unroll 4")

static int classes[8] = { FILL(2, 5) 7, [7] = 1 };
static int grid[4][3] = { FILL(0, 1) { 1, 2, 3 }, [3] = { 9 } };

static int evaluations;
static int next_id(void) { evaluations++; return 3; }
static double scale(void) { evaluations += 10; return 2.5; }

static int kind(int ch) {
    switch (ch) {
    DIGIT_CASES: return 1;
    case 'a' ... 'z': return 2;
    default: return 0;
    }
}

static size_t row_bytes(int n, int m) {
    double table[n][m];
    int i = n - 1;
    return ARRAY_BYTES(table[i]) + ARRAY_BYTES(table);
}

static int weighted_sum(const int *v, int n) {
    int s = 0;
    UNROLL_BY_4
    for (int i = 0; i < n; i++)
        s += v[i] * (i + 1);
    PRAGMA(clang loop vectorize(enable))
    for (int i = 0; i < n; i++)
        s ^= v[i];
    return s;
}

int main(void) {
    int refs = 4, zero = 0;
    int id = PICK(1, next_id(), scale());
    double s = PICK(0, next_id(), scale());
    REF_INC(&refs);
    REF_INC(&refs);
    printf("%d %g %d %d\n", id, s, REF_GET(&refs), evaluations);
    int first = OR_ELSE(next_id(), 9);
    int second = OR_ELSE(zero, next_id());
    printf("%d %d %d\n", first, second, evaluations);
    printf("%d %d %d\n", kind('5'), kind('q'), kind('#'));
    printf("%zu %zu\n", row_bytes(4, 3), row_bytes(2, 7));
    printf("%d\n", weighted_sum(classes, 8));
    for (int k = 0; k < 8; k++)
        printf("%d ", classes[k]);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++)
            printf("%d ", grid[r][c]);
    printf("\n");
    return 0;
}
