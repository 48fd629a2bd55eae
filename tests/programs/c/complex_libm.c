/* libm's complex functions in float and double forms (and __builtin_ forms), values from run-time inputs. */
#include <complex.h>
#include <stdio.h>
int main(int argc, char **argv) {
    float _Complex z = argc * (0.75f - 1.25f * I);
    double _Complex d = argc * (0.3 + 0.9 * I);
    float _Complex r[] = {cexpf(z), csqrtf(z), clogf(z), cpowf(z, 2.5f), csinf(z), ccosf(z), ctanhf(z), casinhf(z),
                          cprojf(z), conjf(z), __builtin_cexpf(z)};
    for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++)
        printf("%.7g %.7g\n", crealf(r[i]), cimagf(r[i]));
    printf("%.7g %.7g %.17g %.17g\n", cabsf(z), cargf(z), cabs(d), __builtin_carg(d));
    double _Complex e = __builtin_csqrt(d) + cacos(d) + catan(d);
    printf("%.17g %.17g\n", creal(e), cimag(e));
    return 0;
}
