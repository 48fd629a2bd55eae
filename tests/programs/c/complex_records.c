/* Complex arrays inside structs (raw-memory members), arrays of such structs, a union over a complex. */
#include <complex.h>
#include <stdio.h>
struct poly { int deg; double _Complex c[4]; float _Complex f[2]; };
static double _Complex eval(const struct poly *p, double _Complex x) {
    double _Complex r = 0;
    for (int i = p->deg; i >= 0; i--) r = r * x + p->c[i];
    return r + p->f[1];
}
int main(int argc, char **argv) {
    struct poly ps[2] = {{2, {1, 2 * I, 3}, {0, 1.0f * I}}, {3, {argc, -1, I, 0.5}, {1, 2}}};
    ps[1].c[3] *= 2.0 - I;
    for (int k = 0; k < 2; k++) {
        double _Complex v = eval(&ps[k], 0.5 + 0.25 * I);
        printf("%.17g %.17g\n", creal(v), cimag(v));
    }
    union { double _Complex z; double d[2]; } u = {.z = 1.0 - 3.0 * I};
    u.d[1] = 7.0;
    printf("%g %g\n", creal(u.z), cimag(u.z));
    return 0;
}
