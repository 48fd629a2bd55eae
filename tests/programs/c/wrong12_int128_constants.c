/* __int128 constants wider than 64 bits: file-scope and local initializers, arrays, struct members and 66-bit
   bit-fields (a 128-bit hash seed table, fixed-point accumulators). */
#include <stdio.h>

typedef unsigned __int128 u128;

static const u128 seeds[3] = { ~(u128)0, (u128)0x9e3779b97f4a7c15ULL << 64 | 0xf39cc0605cedc834ULL, (u128)3 << 100 };
__int128 offset = -((__int128)5 << 70) + 11;
__int128 minus_one = -1;
struct acc { int id; __int128 sum; } start = { 4, ((__int128)1 << 64) | 7 };
struct wide { __int128 v : 66; unsigned __int128 u : 70; } fields[3] = {
    { 1, 2 }, { (__int128)1 << 64, (u128)1 << 69 }, { -3, ((u128)1 << 64) | 9 },
};

static void show(const char *what, u128 v)
{
    printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void)
{
    u128 third = ~(u128)0 / 3;
    __int128 neg = (__int128)-7 * ((__int128)1 << 80) % 1000003;
    for (int i = 0; i < 3; i++)
        show("seed", seeds[i]);
    show("offset", (u128)offset);
    show("minus one", (u128)minus_one);
    show("start", (u128)start.sum);
    for (int i = 0; i < 3; i++) {
        show("field v", (u128)(__int128)fields[i].v);
        show("field u", (u128)fields[i].u);
    }
    show("third", third);
    show("neg", (u128)neg);
    return 0;
}
