/* gotos from one case of a switch to a label at the top level of its body (a pattern matcher's 'default: dflt:',
   a formatter's shared 'intcase:'), and backward to a label before the switch. */
static int main2(void);
#include <stdio.h>
static const char *classify(const char *p, int *steps) {
    *steps = 0;
  again:
    (*steps)++;
    switch (*p) {
    case '(':
        return "open";
    case '$':
        if (p[1] != '\0') goto other;
        return "end";
    case '%':
        switch (p[1]) {
        case 'b': p += 2; goto again;
        case 'd': return "digit";
        default: goto other;
        }
        break;
    case 'x': {
        int k = 0;
        while (p[k] == 'x') k++;
        if (k > 2) goto other;
        p += k;
        goto again;
    }
    default: other: {
        if (*p == '\0') return "empty";
        (*steps) += 100;
        if (*p == '*') { p++; goto again; }
        return "class";
    }
    case 'z':
        return "zed";
    }
    return "none";
}
int main(void) {
    const char *tests[] = {"(", "$", "$a", "%b(", "%d", "%q", "xx$", "xxx", "*z", "a", "", "%bxx*("};
    for (int i = 0; i < 12; i++) {
        int steps;
        const char *r = classify(tests[i], &steps);
        printf("%s -> %s %d\n", tests[i], r, steps);
    }
    printf("%d\n", main2());
    return 0;
}
static int fmt(char c) {
    int flags = 0, n = 0;
    switch (c) {
    case 'd': case 'i':
        flags = 1;
        goto intcase;
    case 'u':
        flags = 2;
        goto intcase;
    case 'x':
        flags = 3;
    intcase: {
        n = 10 * flags + 7;
        break;
    }
    case 'f':
        n = -1;
        break;
    }
    return n;
}
static int main2(void) { return fmt('d') + fmt('u') * 100 + fmt('x') * 10000 + fmt('f') * 1000000 + fmt('q'); }
