/* GNU asm templates with dialect alternatives, `{att|intel}`, as <cpuid.h> writes them (`xchg{q|} {%%|}rbx`): a
   CPU-feature probe in the style of a compressor choosing its CRC kernel at run time, and the program's own
   templates that spell both dialects. */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

static unsigned add3(unsigned a, unsigned b) {
    unsigned r = a;
    __asm__("add{l} {%1, %0|%0, %1}\n\tadd{l} {$3, %0|%0, 3}" : "+r"(r) : "r"(b) : "cc");
    return r;
}

static unsigned long rotate_left(unsigned long v, int n) {
    __asm__("rol{q} {%%cl, %0|%0, cl}" : "+r"(v) : "c"(n) : "cc");
    return v;
}

static int has_features(unsigned mask) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    return (c & mask) == mask;
}

int main(void) {
    unsigned a, b, c, d;
    char vendor[13];
    int max = __get_cpuid_max(0, 0) > 0;
    __cpuid(0, a, b, c, d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    printf("max leaf known %d, vendor %s\n", max, vendor);
    printf("sse3 %d clmul+ssse3+sse4.1 %d\n", has_features(1), has_features((1 << 1) | (1 << 9) | (1 << 19)));
    unsigned s = 0;
    for (unsigned i = 0; i < 10; i++)
        s = add3(s, i);
    printf("%u %lx %lx\n", s, rotate_left(0x8000000000000001ul, 4), rotate_left(0x123456789abcdeful, 60));
    return 0;
}
