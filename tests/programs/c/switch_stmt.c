/* switch: fall-through, default anywhere, break/continue inside loops and switches, nested switches, return. */
#include <stdio.h>
#include <stdint.h>

static int classify(int x) {
    int r = 0;
    switch (x) {
    case 0:
        r += 1;          /* falls through */
    case 1:
    case 2:
        r += 10;
        break;
    default:
        r += 100;        /* default in the middle, falls through */
    case 7:
        r += 1000;
        break;
    case -3:
        return -1;
    case 9:
        r = 5;
    }
    return r;
}

static int loops(int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
        switch (i % 5) {
        case 0: continue;            /* continues the loop */
        case 1: acc += 1; break;     /* leaves the switch only */
        case 2: {
            int j = 0;
            while (1) { if (++j > 3) break; acc += j; }
            break;
        }
        case 3:
            switch (i & 1) {          /* nested switch */
            case 0: acc += 7; break;
            default: acc += 11;
            }
            acc *= 2;
            break;
        default:
            if (acc > 200) break;
            acc += 3;
        }
        acc += 1;
    }
    return acc;
}

static unsigned char narrow(unsigned char c) {
    switch (c) {         /* promoted controlling value; constant converted */
    case 255: return 1;
    case (unsigned char)-2: return 2;
    default: return 3;
    }
}

static int64_t wide(int64_t v) {
    switch (v) {
    case 5000000000LL: return 1;
    case -1: return 2;
    }
    return 0;
}

static int empty(int x) {
    switch (x) { }
    switch (x) { default: x++; }
    switch (x) case 4: x += 10;
    return x;
}

int main(void) {
    for (int x = -4; x < 11; x++) printf("classify(%d) = %d\n", x, classify(x));
    printf("loops %d %d\n", loops(7), loops(40));
    printf("narrow %d %d %d\n", narrow(255), narrow(254), narrow(0));
    printf("wide %lld %lld %lld\n", (long long)wide(5000000000LL), (long long)wide(-1), (long long)wide(705032704));
    printf("empty %d %d\n", empty(3), empty(9));
    return 0;
}
