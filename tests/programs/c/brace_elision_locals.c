/* Initializers of local arrays under C's rules: braces elided across rows, designators into rows, strings for
   rows of characters, arrays of structs with elided braces and nested designators, run-time values. */
#include <stdio.h>
struct P { int a; double b[2]; char c; };
int main(void) {
    int flat[2][3] = {1, 2, 3, 4, 5, 6};
    int mixed[2][2][2] = {{1, 2, 3}, 4, 5};
    short rows[3][4] = {{1}, [2] = {7, 8}, [1][3] = 9};
    double grid[2][3] = {[0][1] = 1.5, 2.5, [1] = {0.25}, [1][2] = 4};
    char words[3][6] = {"ab", "cdef", {'x', 'y'}};
    struct P ps[2] = {1, 2.5, 3.5, 'q', [1].b[1] = 9};
    struct P one = {7, {1}, 'z'};
    int n = 3;
    int dyn[2][3] = {n, n + 1, n + 2, n * 2};
    static int st[2][2] = {1, 2, 3};
    printf("%d %d %d %d\n", flat[0][1], flat[1][0], flat[1][2], flat[0][2]);
    printf("%d %d %d %d %d\n", mixed[0][0][1], mixed[0][1][0], mixed[1][0][0], mixed[1][0][1], mixed[1][1][1]);
    printf("%d %d %d %d %d\n", rows[0][0], rows[0][1], rows[2][0], rows[2][1], rows[1][3]);
    printf("%g %g %g %g %g\n", grid[0][1], grid[0][2], grid[1][0], grid[1][1], grid[1][2]);
    printf("%s %s %s\n", words[0], words[1], words[2]);
    printf("%d %g %g %c %d %g %g\n", ps[0].a, ps[0].b[0], ps[0].b[1], ps[0].c, ps[1].a, ps[1].b[1], one.b[0]);
    printf("%d %d %d %d %d %d %d\n", dyn[0][0], dyn[0][2], dyn[1][0], dyn[1][1], st[1][0], st[1][1], one.c);
    return 0;
}
