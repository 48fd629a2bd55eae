/* goto to labels of enclosing blocks: backward (retry loops, out of nested loops), forward, and both. */
#include <stdio.h>
#include <stdint.h>

static int backward(int n) {
    int i = 0, acc = 0;
again:
    acc += i;
    i++;
    if (i < n)
        goto again;
    return acc;
}

static int out_of_loops(int n) {
    int acc = 0, tries = 0;
retry:
    tries++;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            acc += i * j;
            if (acc > 50 * tries && tries < 4)
                goto retry;            /* leaves both loops, runs the block from the label again */
        }
    }
    return acc * 10 + tries;
}

static int forward(int x) {
    int r = 1;
    if (x > 3)
        goto done;
    r += 10;
    for (int i = 0; i < x; i++) {
        r *= 2;
        if (r > 40)
            goto done;
    }
    r += 100;
done:
    r += 1000;
    return r;
}

static uint8_t nested_labels(uint8_t v) {
    uint8_t k = 0;
    {
        int16_t t = 3;
lbl_1:
        k += v;
        {
lbl_2:
            t--;
            if (t > 0 && (k & 1))
                goto lbl_2;
            if (t > -5)
                goto lbl_1;
        }
        k ^= 0x5A;
    }
    while (k > 100) {
        k -= 7;
        if (k % 3 == 0)
            goto end;
    }
    k++;
end:
    return k;
}

int main(void) {
    printf("%d %d\n", backward(5), backward(1));
    printf("%d %d\n", out_of_loops(4), out_of_loops(7));
    printf("%d %d %d\n", forward(0), forward(3), forward(9));
    for (int v = 0; v < 6; v++) printf("%d ", nested_labels((uint8_t)(v * 37)));
    printf("\n");
    return 0;
}
