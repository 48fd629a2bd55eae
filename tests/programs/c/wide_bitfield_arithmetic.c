/* Wide bit-fields in arithmetic: gcc gives `unsigned long long f:40` a 40-bit type, so sums, products,
   shifts and negations wrap at the field's width, and comparisons convert to it. */
#include <stdio.h>

struct stamp {
    unsigned long long ticks : 40;   /* wraps every 2^40 ticks */
    unsigned long long seq : 24;
};

struct mac_entry {
    unsigned long long addr : 48;
    unsigned long long port : 12;
    unsigned long long valid : 1;
    long long delta : 41;            /* signed */
};

struct wide {
    unsigned long long a : 33;
    unsigned long long b : 41;
};

static unsigned long long elapsed(struct stamp now, struct stamp then) {
    /* modular difference of a wrapping counter, as a 40-bit subtraction */
    return now.ticks - then.ticks;
}

static unsigned long long rotate8(const struct stamp *s) {
    return (s->ticks << 8) + (s->ticks >> 32);
}

int main(void) {
    struct stamp t0 = {0xFFFFFFFFF0ULL, 1}, t1 = {0x10ULL, 2};
    printf("elapsed %llx\n", elapsed(t1, t0));
    printf("rot %llx %llx\n", rotate8(&t0), rotate8(&t1));
    printf("shift %llx\n", (unsigned long long)(t1.ticks << 36));
    printf("neg %llx not %llx\n", (unsigned long long)-t1.ticks, (unsigned long long)~t1.ticks);
    printf("back %llx\n", (unsigned long long)(t1.ticks - 0x20) + 0x20);

    struct mac_entry e = {0xFFFFFFFFFFFFULL, 7, 1, -5};
    unsigned long long next = e.addr + 1;          /* 48-bit wrap */
    printf("next %llx port %u\n", next, (unsigned)(e.port * 1000));
    printf("delta %lld %lld\n", (long long)e.delta * 2, (long long)(e.delta - 3));
    printf("cmp %d %d %d\n", e.addr + 1 == 0, t1.ticks - 0x11 > 0xFFFFFFFF00ULL, e.delta < 0);
    printf("mix %llx\n", (unsigned long long)(e.delta + t1.ticks));

    struct wide w = {0x100000, 0x100000};
    unsigned long long p1 = w.a * w.a, p2 = w.a * w.b;
    printf("mul %llx %llx\n", p1, p2);
    w.a = 0x1FFFFFFFFULL;
    printf("inc %d\n", ++w.a == 0);
    unsigned long long sum = 0;
    for (int i = 0; i < 4; i++) {
        t0.ticks += 0x8;
        sum += t0.ticks * 3;
    }
    printf("sum %llx seq %llx\n", sum, (unsigned long long)(t0.seq + t1.seq));
    return 0;
}
