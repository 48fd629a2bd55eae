/* goto into blocks of if statements: forward into a later if, backward from else into then, chained labels;
   an if condition is not evaluated when a goto enters its branch. */
#include <stdio.h>
#include <stdint.h>

static int into_then(int x) {
    int r = 0;
    if (x > 2)
        goto inside;
    r += 5;
    if (x < 0) {
        r += 100;
    inside:
        r += 7;
    } else {
        r -= 1;
    }
    return r;
}

static int else_to_then(int n) {
    int r = 0, k = 0, t = 3;
    if (n & 1) {
    again:
        r += t + k;
    } else {
        k++;
        if (k < n)
            goto again;
        r -= 50;
    }
    return r * 100 + k;
}

static uint8_t deep(uint8_t v) {
    int acc = 1;
    while (acc < 200) {
        if (v > 10) {
            acc += 3;
            if (acc & 1)
                goto l2;
            acc *= 2;
        }
        {
            if (v == 0) {
                acc += 1;
            } else {
            l1:
            l2:
                acc += 11;
                if (acc < 30)
                    goto l1;
            }
        }
        acc += v;
    }
    return acc;
}

static int cond_side_effects(int x) {
    int calls = 0;
    if (x)
        goto in;
    if (++calls > 5) {          /* the condition is not evaluated when jumping in */
    in:
        calls += 100;
    }
    return calls;
}

int main(void) {
    for (int x = -2; x < 5; x++) printf("%d ", into_then(x));
    printf("\n");
    for (int n = 0; n < 5; n++) printf("%d ", else_to_then(n));
    printf("\n");
    for (int v = 0; v < 40; v += 7) printf("%d ", deep((uint8_t)v));
    printf("\n%d %d\n", cond_side_effects(0), cond_side_effects(1));
    return 0;
}
