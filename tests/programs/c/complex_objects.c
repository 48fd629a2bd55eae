/* Complex objects: heap arrays, pointers, __real__/__imag__ as lvalues, 2-D arrays, ?:, static locals,
   structs holding complex members by value, ++/--, and a double _Complex passed after seven doubles. */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { double _Complex z; } wrap;
typedef struct { float _Complex a, b; } pairf;

wrap twice(wrap w) { w.z = w.z * 2; return w; }
pairf swap(pairf p) { pairf q = {p.b, p.a}; return q; }

double _Complex many(double a, double b, double c, double d, double e, double f, double g,
                     double _Complex z, double h) {
    return z * (a + b + c + d + e + f + g) + h;
}

static double _Complex accumulate(double _Complex z) {
    static double _Complex total;
    total += z;
    return total;
}

int main(int argc, char **argv) {
    int n = 5 + argc;
    double _Complex *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = i + (n - i) * I;
    double _Complex z = a[2];
    double _Complex *p = &z;
    *p += a[3];
    __real__ z = 10.0;
    __imag__ a[1] = -3.0;
    double _Complex m[2][3] = {{1, 2 * I, 3}, {4 * I, 5, 6}};
    double _Complex c = argc > 1 ? m[1][0] : m[0][1] + z;
    printf("%g %g | %g %g | %g %g\n", creal(z), cimag(z), creal(a[1]), cimag(a[1]), creal(c), cimag(c));
    wrap w = {1.0 - 2.0 * I};
    w = twice(w);
    pairf q = swap((pairf){1.0f + 2.0f * I, 3.0f});
    printf("%g %g | %g %g %g %g\n", creal(w.z), cimag(w.z), crealf(q.a), cimagf(q.a), crealf(q.b), cimagf(q.b));
    double _Complex r = many(1, 2, 3, 4, 5, 6, 7, 0.5 + 0.25 * I, 9);
    printf("%g %g\n", creal(r), cimag(r));
    accumulate(1.0); accumulate(I);
    double _Complex t = accumulate(2.0 + I);
    printf("%g %g %zu\n", creal(t), cimag(t), sizeof(float _Complex));
    float _Complex f = 1.5f;
    f++;
    --f; f++;
    printf("%g %g\n", crealf(f), cimagf(f));
    free(a);
    return 0;
}
