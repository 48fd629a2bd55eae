/* A goto from one case of a switch into a case of a switch nested under another case, as a regular-expression
 * parser jumps from its backslash-escape case into the group case's shared tail (`\g1` and `(?R)` both end
 * at SET_RECURSION). */
#include <stdio.h>
#include <string.h>

enum { LITERAL = 100, ESCAPE = 92, GROUP = 50 };

static int parse(const char *p, const char *end, int *out) {
    int n = 0, k = 0;
    while (p < end) {
        int c = *p++;
        switch (c) {
        default:
            out[k++] = LITERAL + c;
            break;
        case '\\':
            if (p < end && *p >= '0' && *p <= '9') {
                n = 10 + *p - '0';
                goto SET_RECURSION;
            }
            out[k++] = ESCAPE;
            break;
        case '(':
            if (p >= end)
                goto FAILED;
            switch (*p) {
            default:
                out[k++] = GROUP;
                p++;
                break;
            case 'R':
                n = 0;
                p++;
                if (p >= end || *p != ')')
                    goto FAILED;
                goto SET_RECURSION;
            case '0': case '1': case '2':
                n = *p - '0';
                p++;
                if (p >= end || *p != ')')
                    goto FAILED;
            SET_RECURSION:
                out[k++] = n;
                p++;
                break;
            }
            break;
        }
    }
    return k;
FAILED:
    return -1;
}

static int classify(int c, int d) {
    int n = -1;
    switch (c) {
    case 'x':
        n = d * 2;
        goto TAIL;
    case 'y':
        switch (d) {
        case 1:
            n = 7;
        TAIL:
            n += 1000;
            break;
        default:
            n = -d;
        }
        break;
    }
    return n;
}

int main(void) {
    int out[32];
    const char *patterns[] = {"(R)b", "a(1)(R)", "(2)", "(R)(R)x", "\\3z(R)", "(x", "\\q\\7(0)", "(R"};
    for (int t = 0; t < 8; t++) {
        int k = parse(patterns[t], patterns[t] + strlen(patterns[t]), out);
        printf("%d:", k);
        for (int i = 0; i < k; i++)
            printf(" %d", out[i]);
        printf("\n");
    }
    printf("%d %d %d %d\n", classify('x', 4), classify('y', 1), classify('y', 3), classify('z', 0));
    return 0;
}
