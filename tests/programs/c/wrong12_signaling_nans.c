/* Signaling NaNs written as constants (C2x's FLT_SNAN/DBL_SNAN/LDBL_SNAN, __builtin_nans with a payload), in
   globals, static locals and automatic variables: their bits, and that arithmetic on them raises FE_INVALID. */
#include <fenv.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

volatile float gf = FLT_SNAN;
volatile double gd = DBL_SNAN;
volatile long double gl = LDBL_SNAN;
struct sample { int id; float f; double d; } gs = { 7, __builtin_nansf("3"), __builtin_nans("0x21") };
float table[3] = { 1.0f, FLT_SNAN, -2.5f };

static void show_float(const char *what, float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    printf("%s %08x\n", what, u);
}

static void show_double(const char *what, double d)
{
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    printf("%s %016llx\n", what, u);
}

static void show_long_double(const char *what, long double l)
{
    unsigned char b[10];
    memcpy(b, &l, sizeof b);
    printf("%s ", what);
    for (int i = 9; i >= 0; i--)
        printf("%02x", b[i]);
    printf("\n");
}

int main(void)
{
    static float sf = FLT_SNAN;
    float lf = FLT_SNAN, pf = __builtin_nansf("5");
    double ld = DBL_SNAN, pd = __builtin_nans("0x11");
    long double ll = LDBL_SNAN, ql = __builtin_nanl("9");
    show_float("global float", gf);
    show_float("static float", sf);
    show_float("local float", lf);
    show_float("payload float", pf);
    show_float("member float", gs.f);
    show_float("element float", table[1]);
    show_double("global double", gd);
    show_double("local double", ld);
    show_double("payload double", pd);
    show_double("member double", gs.d);
    show_long_double("global long double", gl);
    show_long_double("local long double", ll);
    show_long_double("quiet long double", ql);
    feclearexcept(FE_ALL_EXCEPT);
    gf += gf;
    int f_invalid = fetestexcept(FE_INVALID) != 0;
    feclearexcept(FE_ALL_EXCEPT);
    gd += gd;
    int d_invalid = fetestexcept(FE_INVALID) != 0;
    feclearexcept(FE_ALL_EXCEPT);
    gl += gl;
    int l_invalid = fetestexcept(FE_INVALID) != 0;
    printf("invalid %d %d %d\n", f_invalid, d_invalid, l_invalid);
    return 0;
}
