/* Struct and union initializers: nested arrays of structs with elided braces and strings, nested designators
   followed by positional values, unions by member, arrays of structs of unknown size, globals and locals. */
#include <stdio.h>
struct In { short s[2]; char tag[4]; };
struct Out { int n; struct In in[2]; double d; };
union U { int i; char c[4]; float f; };
struct Out gout = {1, 2, 3, "ab", 4, 5, "cd", 6.5};
struct Out gout2 = {.in[1].tag = "zz", 9, .n = 3};
union U gu = {.c = {1, 2}};
int main(void) {
    struct Out o = {1, 2, 3, "ab", 4, 5, "cd", 6.5};
    struct Out o2 = {.in[1].tag = "zz", 9, .n = 3};
    struct Out o3 = {7, {{{1}, "q"}}, 2.0};
    union U u = {.c = {1, 2}};
    union U u2 = {65};
    struct In arr[] = {1, 2, "x", {{3, 4}, "yy"}};
    printf("%d %d %d %s %d %s %g\n", o.n, o.in[0].s[1], o.in[1].s[0], o.in[0].tag, o.in[1].s[1], o.in[1].tag, o.d);
    printf("%d %s %d %g %d %s %g\n", o2.n, o2.in[1].tag, o2.in[1].s[0] + o2.in[0].s[0], o2.d, o3.in[0].s[0], o3.in[0].tag, o3.d);
    printf("%d %d %d %zu %d %s %s\n", u.i, u2.i, u2.c[0], sizeof arr / sizeof arr[0], arr[1].s[1], arr[0].tag, arr[1].tag);
    printf("%d %d %s %s %g | %d %s %d\n", gout.in[0].s[1], gout.in[1].s[0], gout.in[0].tag, gout.in[1].tag, gout.d, gout2.n, gout2.in[1].tag, gu.i);
    return 0;
}
