/* Library half of a two-object program: complex values across the C ABI (compiled by gcc or pgcc). */
#include <complex.h>

double _Complex rotate(double _Complex z, double angle_cos, double _Complex w, int times) {
    for (int i = 0; i < times; i++)
        z = z * w * angle_cos;
    return z;
}

float _Complex mixf(int n, float _Complex a, double d, float _Complex b) {
    return a * n + b * (float)d;
}

double _Complex step(double _Complex z, float _Complex c);

double _Complex apply(double _Complex z, float _Complex c) { return step(z, c) + step(c, z); }

float _Complex roundtrip(float _Complex z) { return conjf(z) * 2.0f; }

/* the SSE registers run out: a double _Complex that would straddle them goes in memory */
double _Complex weighted(double a, double b, double c, double d, double e, double f, double g, double _Complex z,
                         double h) {
    return z * (a + b + c + d + e + f + g) + h;
}

double _Complex spilled(double a, double b, double c, double d, double e, double f, double g, double h,
                        double _Complex z, float _Complex y) {
    return z * (a - b + c - d + e - f + g - h) + y;
}

typedef struct { double _Complex z; } wrapped;
typedef struct { float _Complex a, b; } pairf;

wrapped doubled(wrapped w) { w.z = w.z * 2; return w; }
pairf swapped(pairf p) { pairf q = {p.b, p.a}; return q; }

/* a callback through a pointer, defined in the other object */
double _Complex apply_fn(double _Complex (*f)(double _Complex, float _Complex), double _Complex z, float _Complex c) {
    return f(z, c) - f(c, z);
}

/* globals shared with the other object */
double _Complex shared_z = 1.0 + 2.0 * I;
float _Complex shared_f[2] = {3.0f, -1.0f};
