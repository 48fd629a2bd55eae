/* Complex globals: structs and arrays of them with constant initializers (CMPLXF, -3.0 * I), pointer walks,
   memcpy, compound assignment through pointers and members, complex in conditions. */
#include <complex.h>
#include <stdio.h>
#include <string.h>

struct rec { int id; double _Complex z; };
struct rec table[2] = {{1, 1.0 + 2.0 * I}, {2, -3.0 * I}};
const float _Complex fc[3] = {1.0f, 2.0f * I, CMPLXF(3.0f, -4.0f)};
float _Complex one_f = 1.0f - 1.0f * I;

int large_globals(void);

static float _Complex fmul(float _Complex a, float _Complex b) { return a * b; }

int main(int argc, char **argv) {
    double _Complex x[4] = {1, 2, 3, 4}, y[4];
    double _Complex *p = x + 1;
    p[1] *= 2.0 * I;
    *p /= 1.0 - 1.0 * I;
    memcpy(y, x, sizeof x);
    for (double _Complex *q = y; q < y + 4; q++)
        printf("%g %g ", creal(*q), cimag(*q));
    printf("\n%d %g %g %g %g\n", table[1].id, creal(table[0].z), cimag(table[0].z), creal(table[1].z), cimag(table[1].z));
    double _Complex d = fmul(fc[1], fc[2]) + one_f;
    printf("%g %g %g %d %d\n", creal(d), cimag(d), creal(fc[2]), (_Bool)(0.0 * I), (int)(d + 0.5));
    if (d && !(x[0] - 1.0))
        puts("both");
    table[0].z *= table[1].z;
    printf("%g %g\n", creal(table[0].z), cimag(table[0].z));
    return large_globals();
}

/* large complex globals: zero-filled, and designated initializers far apart */
double _Complex big_buffer[100000];
static float _Complex sparse_table[5000] = {1.0f, [4999] = 2.0f * I};

int large_globals(void) {
    big_buffer[99999] += sparse_table[4999] + sparse_table[0];
    printf("%g %g %g\n", creal(big_buffer[99999]), cimag(big_buffer[99999]), cimag(big_buffer[5]));
    return 0;
}
