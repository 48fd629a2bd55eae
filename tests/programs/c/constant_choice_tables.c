/* A static table of tests whose entries are chosen by constant conditions (`HAS_X ? test_x : NULL`), as a
   feature-detecting test driver writes it. */
#include <stdio.h>
#define HAS_A 1
#define HAS_B 0
static int ta(void) { return 1; }
static int tb(void) { return 2; }
static int tc(void) { return 3; }
int main(void) {
    static const struct { const char *name; int (*fn)(void); } tests[] = {
        {"a", HAS_A ? ta : NULL}, {"b", HAS_B ? tb : NULL}, {"c", HAS_A && !HAS_B ? tc : NULL},
        {HAS_B ? "x" : "y", 0}};
    int s = 0;
    for (int i = 0; i < 4; i++) s = s * 10 + (tests[i].fn ? tests[i].fn() : 0);
    printf("%d %s\n", s, tests[3].name);
    return 0;
}
