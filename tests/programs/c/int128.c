/* 128-bit integers (__int128, __uint128_t): a hash's 64x64->128 multiply and fold, signed division and
   remainder, shifts, comparisons, conversions. */
#include <stdio.h>
#include <stdint.h>
#include <stdarg.h>
static uint64_t mul128_fold64(uint64_t lhs, uint64_t rhs) {
    __uint128_t const product = (__uint128_t)lhs * (__uint128_t)rhs;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
}
static __int128 sq(__int128 x) { return x * x; }
static __int128 nth_wide(int skip, ...) {  /* an __int128 in the variadic part, after `skip` ints */
    va_list ap;
    va_start(ap, skip);
    while (skip--)
        (void)va_arg(ap, int);
    __int128 r = va_arg(ap, __int128);
    va_end(ap);
    return r;
}

int main(void) {
    uint64_t a = 0x9E3779B185EBCA87ULL, b = 0xC2B2AE3D27D4EB4FULL;
    __int128 big = sq((__int128)3000000000000LL);
    __int128 neg = -big / 7;
    unsigned __int128 u = (unsigned __int128)-1;
    printf("%llx %llx %lld %llu %d\n", (unsigned long long)mul128_fold64(a, b), (unsigned long long)(big >> 64),
           (long long)(neg % 1000000007), (unsigned long long)(u >> 100), big > neg);
    __int128 w = ((__int128)0x1234567 << 64) | 0x89abcdefULL;
    printf("%d %d %d\n", nth_wide(0, w) == w, nth_wide(1, 7, w) == w, nth_wide(7, 1, 2, 3, 4, 5, 6, 7, w) == w);
    return 0;
}
