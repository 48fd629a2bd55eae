/* C integer semantics on x86-64: promotions, usual arithmetic conversions, wrap-around, shifts, division,
   signed/unsigned comparisons, compound assignment with narrowing, ++/-- on narrow types. */
#include <stdint.h>
#include <stdio.h>

static uint64_t h = 1469598103934665603ULL;
static void mix(const char *what, uint64_t v) {
    h = (h ^ v) * 1099511628211ULL;
    printf("%s %llu\n", what, (unsigned long long)v);
}

static int8_t ident8(int8_t x) { return x; }

enum Big { BIG_A = 0xFFFFFFFF, BIG_B = 1 };   /* gcc: unsigned int */
enum Huge { HUGE_A = 0x1FFFFFFFFLL };         /* gcc: a 64-bit type */

int main(void) {
    int8_t s8 = -100; uint8_t u8 = 200; int16_t s16 = -30000; uint16_t u16 = 60000;
    int32_t s32 = -2000000000; uint32_t u32 = 4000000000u; int64_t s64 = -5; uint64_t u64 = 18446744073709551610ULL;
    char c = 'A'; signed char sc = -1; unsigned char uc = 255; short sh = -7; unsigned short us = 65535;
    long l = -3; unsigned long ul = 3; long long ll = -9; unsigned long long ull = 9;

    /* promotions: uint8 + uint8 is int, no wrap */
    mix("u8+u8", (uint64_t)(int64_t)(u8 + u8));
    mix("u16*u16", (uint64_t)(int64_t)(u16 * (uint32_t)u16));
    mix("s8*s8", (uint64_t)(int64_t)(s8 * s8));
    /* usual arithmetic conversions: int vs unsigned */
    mix("s32+u32", s32 + u32);
    mix("-1<1u", -1 < 1u);
    mix("-1<1L", -1 < 1L);
    mix("-1L<1u", -1L < 1u);
    mix("-1LL<1ULL", -1LL < 1ULL);
    mix("s8<u8", s8 < u8);
    mix("s32<u32", s32 < u32);
    mix("s64>u32", s64 > u32);
    /* wrap-around */
    mix("u32+u32", u32 + u32);
    mix("u64*3", u64 * 3);
    mix("u32-5", (uint32_t)(3u - 5u));
    mix("-u32", -u32);
    mix("-u8", (uint64_t)(int64_t)(-u8));
    mix("-u64", -u64);
    mix("~u8", (uint64_t)(int64_t)(~u8));
    mix("~u32", ~u32);
    mix("~s8", (uint64_t)(int64_t)(~s8));
    mix("!s32", !s32);
    mix("!0", !0);
    /* shifts */
    mix("u8<<7", (uint64_t)(int64_t)(u8 << 7));
    mix("s8>>2", (uint64_t)(int64_t)(s8 >> 2));
    mix("s32>>31", (uint64_t)(int64_t)(s32 >> 31));
    mix("u32>>31", u32 >> 31);
    mix("s64>>u8", (uint64_t)(s64 >> (u8 - 190)));
    mix("1<<s64", (uint64_t)(int64_t)(1 << (s64 + 35)));
    mix("1ULL<<40", 1ULL << 40);
    mix("u16>>shortcount", (uint64_t)(u16 >> sh + 10));
    /* division */
    mix("-7/2", (uint64_t)(int64_t)(-7 / 2));
    mix("-7%2", (uint64_t)(int64_t)(-7 % 2));
    mix("7%-2", (uint64_t)(int64_t)(7 % -2));
    mix("-7/2u", -7 / 2u);
    mix("-7%2u", -7 % 2u);
    mix("s8/s8", (uint64_t)(int64_t)(s8 / (int8_t)-3));
    mix("u64/7", u64 / 7);
    mix("s64%3", (uint64_t)(s64 % 3));
    mix("u8/s8", (uint64_t)(int64_t)(u8 / s8));
    /* conversions and truncation */
    mix("(int8)300", (uint64_t)(int64_t)(int8_t)300);
    mix("(uint8)-1", (uint8_t)-1);
    mix("(int16)u16", (uint64_t)(int64_t)(int16_t)u16);
    mix("(int32)u32", (uint64_t)(int64_t)(int32_t)u32);
    mix("(uint32)s64", (uint32_t)s64);
    mix("(int64)u32", (int64_t)u32);
    mix("(int64)s32", (uint64_t)(int64_t)s32);
    mix("ident8(200)", (uint64_t)(int64_t)ident8(200));
    mix("(unsigned)(char)200", (unsigned)(char)200);
    mix("(double)u64", (uint64_t)((double)u64 / 1e10));
    mix("(uint32)3.9", (uint32_t)3.9);
    mix("(int)-3.9", (uint64_t)(int64_t)(int)-3.9);
    /* compound assignment with narrowing */
    u8 += 100; mix("u8+=100", u8);
    u8 -= 250; mix("u8-=250", u8);
    s8 -= 100; mix("s8-=100", (uint64_t)(int64_t)s8);
    u8 <<= 9; mix("u8<<=9", u8);
    u8 = 0x81; u8 >>= 1; mix("u8>>=1", u8);
    s8 = -128; s8 >>= 9; mix("s8>>=9", (uint64_t)(int64_t)s8);
    s16 *= 3; mix("s16*=3", (uint64_t)(int64_t)s16);
    u16 *= u16; mix("u16*=u16", u16);
    s32 /= 7u; mix("s32/=7u", (uint64_t)(int64_t)s32);
    s32 = -9; s32 %= 4u; mix("s32%=4u", (uint64_t)(int64_t)s32);
    s8 = -9; s8 /= 2; mix("s8/=2", (uint64_t)(int64_t)s8);
    u32 += 1.5; mix("u32+=1.5", u32);
    s16 = 1; s16 <<= 15; mix("s16<<=15", (uint64_t)(int64_t)s16);
    uc |= 0x100; mix("uc|=0x100", uc);
    us ^= -1; mix("us^=-1", us);
    l >>= 1; mix("l>>=1", (uint64_t)l);
    ul -= 4; mix("ul-=4", ul);
    ll *= -ll; mix("ll*=-ll", (uint64_t)ll);
    ull /= ll; mix("ull/=ll", ull);
    s64 = 5; s64 %= -3; mix("s64%=-3", (uint64_t)s64);
    /* ++ and -- on narrow types */
    uc = 255; uc++; mix("uc++", uc);
    sc = 127; sc++; mix("sc++", (uint64_t)(int64_t)sc);
    us = 0; us--; mix("us--", us);
    sh = -32768; --sh; mix("--sh", (uint64_t)(int64_t)sh);
    mix("uc++ value", uc++);
    mix("++uc value", ++uc);
    /* _Bool: ++ sets, -- toggles, compound assignment converts to 0/1 */
    _Bool b = 0; b++; mix("b++", b); b++; mix("b++ again", b); b--; mix("b--", b); b--; mix("b-- again", b);
    b = 5; b += 2; mix("b+=2", b); b -= 1; mix("b-=1", b); b = 0.25; mix("b=0.25", b);
    /* enums take their integer type from their values */
    enum Big eb = BIG_A; enum Huge eh = HUGE_A;
    mix("enum big > 1", eb > BIG_B); mix("enum big / 2", eb / 2); mix("enum huge", (uint64_t)eh);
    /* char literals */
    c = 'z'; mix("c", (uint64_t)(int64_t)c);
    mix("'\\xff'", (uint64_t)(int64_t)'\xff');
    mix("'\\n'+c", (uint64_t)(int64_t)('\n' + c));
    mix("(char)-56", (uint64_t)(int64_t)(char)-56);
    /* comma, ?: with mixed types */
    mix("comma", (s8 = 3, s8 + 4));
    mix("?: s32 u32", 1 ? -1 : 0u);
    mix("?: s8 u64", s8 > 0 ? s8 - 10 : u64);
    mix("?: char long", c ? c : 5L);
    mix("?: u8 s8", (uint64_t)(int64_t)(uc ? uc : s8));
    mix("?: double int", (uint64_t)(c ? 7 : 2.5));
    printf("hash %llu\n", (unsigned long long)h);
    return 0;
}
