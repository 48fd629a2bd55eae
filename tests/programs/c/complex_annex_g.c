/* Complex * and / at the edges (C11 Annex G as gcc does it), mixed real/complex operands, conversions. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

static void show(const char *what, double _Complex z) {
    printf("%-10s %g %g\n", what, creal(z), cimag(z));
}

static void showf(const char *what, float _Complex z) {
    printf("%-10s %g %g\n", what, (double)crealf(z), (double)cimagf(z));
}

int main(int argc, char **argv) {
    double big = argc * 1e300, tiny = argc * 1e-300, inf = argc * INFINITY, nan_ = argc * NAN;
    double _Complex vals[] = {1.0 + 2.0 * I, big + tiny * I, tiny - big * I, inf + 1.0 * I, CMPLX(nan_, inf),
                              0.0, 3.0 - 0.0 * I, -big - big * I};
    int n = sizeof vals / sizeof vals[0];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            char tag[16];
            snprintf(tag, sizeof tag, "%d*%d", i, j);
            show(tag, vals[i] * vals[j]);
            float _Complex a = vals[i], b = vals[j];
            snprintf(tag, sizeof tag, "f%d*%d", i, j);
            showf(tag, a * b);
            snprintf(tag, sizeof tag, "%d/%d", i, j);
            show(tag, vals[i] / vals[j]);
            snprintf(tag, sizeof tag, "f%d/%d", i, j);
            showf(tag, a / b);
        }
    double x = 2.5 * argc;
    double _Complex z = 1.5 - 4.0 * I;
    show("x+z", x + z);
    show("z-x", z - x);
    show("x-z", x - z);
    show("x*z", x * z);
    show("z/x", z / x);
    show("x/z", x / z);
    z *= 2;
    z += 1.0 * I;
    z /= 1.0 + 1.0 * I;
    z -= x;
    show("compound", z);
    x += z;
    printf("x %g\n", x);
    int k = 3;
    show("int", k * z + k);
    printf("eq %d %d %d\n", z == z, z == x, (double _Complex)x == x);
    printf("bool %d %d\n", !z, !(0.0 * z));
    printf("parts %g %g %g %g\n", __real__ z, __imag__ z, __real__ x, __imag__ x);
    printf("abs %.17g arg %.17g\n", cabs(z), carg(z));
    printf("builtin %g %g %g\n", __builtin_creal(z), __builtin_cimag(conj(z)), __builtin_cabs(3.0 + 4.0 * I));
    printf("exp %g %g\n", creal(cexp(z)), cimag(csqrt(z)));
    return 0;
}
