/* Complex constants with infinite, NaN and negative-zero parts in static storage (a table of special values
   for a complex math routine's tests), for float, double and long double parts. */
#include <stdio.h>
#include <string.h>

static void bits(const char *what, const void *p, int n)
{
    const unsigned char *b = p;
    printf("%s ", what);
    for (int i = n - 1; i >= 0; i--)
        printf("%02x", b[i]);
    printf("\n");
}

static _Complex float fcases[3] = {
    __builtin_complex(__builtin_inff(), -0.0f),
    __builtin_complex(__builtin_nanf(""), -__builtin_inff()),
    __builtin_complex(-0.0f, 2.5f),
};
static _Complex double dcases[2] = {
    __builtin_complex(-__builtin_inf(), __builtin_nan("")),
    __builtin_complex(0.0, -0.0),
};

int main(void)
{
    static _Complex long double l1 = __builtin_complex(0.0l, -0.0l);
    static _Complex long double l2 = __builtin_complex(__builtin_nanl(""), __builtin_infl());
    static _Complex long double l3 = __builtin_complex(-0.0l, -__builtin_infl());
    for (int i = 0; i < 3; i++) {
        float re = __real__ fcases[i], im = __imag__ fcases[i];
        bits("float re", &re, 4);
        bits("float im", &im, 4);
    }
    for (int i = 0; i < 2; i++) {
        double re = __real__ dcases[i], im = __imag__ dcases[i];
        bits("double re", &re, 8);
        bits("double im", &im, 8);
    }
    long double parts[6] = { __real__ l1, __imag__ l1, __real__ l2, __imag__ l2, __real__ l3, __imag__ l3 };
    for (int i = 0; i < 6; i++)
        bits("long double", &parts[i], 10);
    return 0;
}
