/* long double constants spelled with many digits (a table of physical constants, a series' coefficients) or
   continued over lines with backslash-newline: the whole literal, exponent included, is the value. */
#include <stdio.h>

static const long double planck = 6.62607015000000000000000000000000000000000000000000000000000000000000000001e-34L;
static const long double series[3] = {
    1.00000000000000000000000000000000000000000000000000000000000000000000000000000000025e-3L,
    -4.1666666666666666666666666666666666666666666666666666666666666666666666666666666667e-2L,
    2.7557319223985890652557319223985890652557319223985890652557319223985890652557319e-6L,
};
static const long double continued = 3.1415926535897932384\
6264338327950288419716939937510e2L;

int main(void)
{
    long double scale = 9.8765432109876543210987654321098765432109876543210987654321098765432109876e+12L;
    long double sum = 0;
    for (int i = 0; i < 3; i++)
        sum += series[i];
    printf("%.21Lg\n%.21Lg\n%.21Lg\n%.21Lg\n", planck, sum, continued, scale);
    printf("%d\n", planck < 1e-30L && continued > 300.0L && scale > 1e12L);
    return 0;
}
