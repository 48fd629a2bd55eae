/* Declarations directly in a switch body, not in braces: a generated parser's reduce routine declares its
   result union before the first case label; other code declares scratch variables between labels and uses them
   after fall-through (marked by a macro from another file). Passing such a declaration runs no code; its scope
   is the rest of the body. */
#include <stdio.h>
#include <string.h>

#include "fallthrough_macro.inc"

typedef union {
    int i;
    double d;
    const char *s;
    struct { short lo, hi; } pair;
} minor_t;

typedef struct { int rule; minor_t minor; } entry_t;

static int bump(int *p) { return ++*p; }

/* like a generated reduce action table: the union is declared before any label */
static double reduce(entry_t *stack, int top, int rule) {
    double out = 0;
    switch (rule) {
        minor_t lhs;
        int scratch;
    case 0:
        lhs.i = stack[top].minor.i + stack[top - 1].minor.i;
        stack[top - 1].minor = lhs;
        out = lhs.i;
        break;
    case 1:
        lhs.d = stack[top].minor.d * 2.5;
        out = lhs.d;
        break;
    case 2:
        scratch = (int)strlen(stack[top].minor.s);
        FALL_THROUGH;
    case 3:
        if (rule == 3)
            scratch = 100;
        lhs.pair.lo = (short)scratch;
        lhs.pair.hi = (short)(scratch * 3);
        out = lhs.pair.lo + lhs.pair.hi;
        break;
    default:
        scratch = rule;
        out = -bump(&scratch);
        break;
    }
    return out;
}

/* every arm ends in a jump; a declaration sits inside an arm */
static int arms(int k) {
    switch (k) {
    case 1:
        k += 6;
        int t;
        t = k * 7;
        return t + 1;
    case 2:
        t = 40;
        return t + 2;
    case 3: {
        return 3;
    }
    default:
        return -1;
    }
}

/* declarations between labels in a loop's switch: a state machine counting tokens */
static void scan(const char *text, int counts[3]) {
    int state = 0;
    for (const char *p = text; *p; p++) {
        switch (state) {
            static int seen;
            char c;
            typedef unsigned char uch;
        case 0:
            c = *p;
            seen++;
            if ((uch)c >= '0' && (uch)c <= '9') { state = 1; counts[0]++; }
            else if (c != ' ') { state = 2; counts[1]++; }
            break;
        case 1:
        case 2:
            c = *p;
            if (c == ' ') { state = 0; counts[2] += seen > 0; }
            break;
        }
    }
}

int main(void) {
    entry_t st[4];
    memset(st, 0, sizeof st);
    st[0].minor.i = 20; st[1].minor.i = 22;
    double r0 = reduce(st, 1, 0);
    printf("r0 %.1f %d\n", r0, st[0].minor.i);
    st[1].minor.d = 1.5;
    printf("r1 %.2f\n", reduce(st, 1, 1));
    st[1].minor.s = "hello, world";
    printf("r2 %.1f\n", reduce(st, 1, 2));
    printf("r3 %.1f\n", reduce(st, 1, 3));
    printf("r9 %.1f\n", reduce(st, 1, 9));
    for (int k = 0; k < 5; k++)
        printf("arms(%d) = %d\n", k, arms(k));
    int counts[3] = {0, 0, 0};
    scan("12 abc 7 x9 44 ! z", counts);
    printf("scan %d %d %d\n", counts[0], counts[1], counts[2]);
    return 0;
}
