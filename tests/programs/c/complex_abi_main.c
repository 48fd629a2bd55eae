/* Main half of a two-object program (see complex_abi_lib.c): calls into the library and is called back. */
#include <complex.h>
#include <stdio.h>

double _Complex rotate(double _Complex z, double angle_cos, double _Complex w, int times);
float _Complex mixf(int n, float _Complex a, double d, float _Complex b);
double _Complex apply(double _Complex z, float _Complex c);
float _Complex roundtrip(float _Complex z);
double _Complex weighted(double a, double b, double c, double d, double e, double f, double g, double _Complex z,
                         double h);
double _Complex spilled(double a, double b, double c, double d, double e, double f, double g, double h,
                        double _Complex z, float _Complex y);
typedef struct { double _Complex z; } wrapped;
typedef struct { float _Complex a, b; } pairf;
wrapped doubled(wrapped w);
pairf swapped(pairf p);
extern double _Complex shared_z;
extern float _Complex shared_f[2];
double _Complex apply_fn(double _Complex (*f)(double _Complex, float _Complex), double _Complex z, float _Complex c);

double _Complex step(double _Complex z, float _Complex c) { return z * z + c; }

int main(void) {
    double _Complex r = rotate(1.0 + 0.5 * I, 0.9, 0.6 + 0.8 * I, 5);
    float _Complex m = mixf(3, 1.5f - 2.0f * I, 0.25, -4.0f + 1.0f * I);
    double _Complex a = apply(0.3 - 0.2 * I, 0.1f + 0.7f * I);
    float _Complex t = roundtrip(m);
    printf("%.17g %.17g\n%.9g %.9g\n%.17g %.17g\n%.9g %.9g\n", creal(r), cimag(r), crealf(m), cimagf(m),
           creal(a), cimag(a), crealf(t), cimagf(t));
    double _Complex w = weighted(1, 2, 3, 4, 5, 6, 7, 0.5 + 0.25 * I, 9);
    double _Complex s = spilled(1, 2, 3, 4, 5, 6, 7, 8, 0.5 + 0.25 * I, 3.0f - 1.0f * I);
    wrapped d = doubled((wrapped){1.0 - 2.0 * I});
    pairf q = swapped((pairf){1.0f + 2.0f * I, 3.0f});
    printf("%g %g %g %g\n%g %g %g %g %g %g\n", creal(w), cimag(w), creal(s), cimag(s), creal(d.z), cimag(d.z),
           crealf(q.a), cimagf(q.a), crealf(q.b), cimagf(q.b));
    double _Complex (*fp)(double _Complex, float _Complex) = step;
    double _Complex b = apply_fn(fp, 1.0 - 0.5 * I, 0.25f) + fp(2.0, 1.0f * I);
    printf("%.17g %.17g\n", creal(b), cimag(b));
    shared_z *= 2.0 * I;
    shared_f[1] += shared_z;
    printf("%g %g %g %g\n", creal(shared_z), cimag(shared_z), crealf(shared_f[1]), cimagf(shared_f[1]));
    return 0;
}
