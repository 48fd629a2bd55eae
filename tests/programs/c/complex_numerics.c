/* Complex arithmetic in numerical code: a radix-2 FFT, RLC impedance, quadratic roots, Julia set. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 16

typedef struct {
    double _Complex z;
    float _Complex w;
    int tag;
} sample;

static double _Complex twiddle_table[4] = {1.0, -1.0 * I, -1.0, 1.0 * I};
double _Complex origin = 0.5 - 0.25 * I;

static void fft(double _Complex *x, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double _Complex t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = -2.0 * M_PI / len;
        double _Complex wl = cexp(ang * I);
        for (int i = 0; i < n; i += len) {
            double _Complex w = 1.0;
            for (int k = 0; k < len / 2; k++) {
                double _Complex u = x[i + k], v = x[i + k + len / 2] * w;
                x[i + k] = u + v;
                x[i + k + len / 2] = u - v;
                w *= wl;
            }
        }
    }
}

static double _Complex impedance(double r, double l, double c, double omega) {
    return r + I * omega * l + 1.0 / (I * omega * c);
}

static int roots(double a, double b, double c, double _Complex *r1, double _Complex *r2) {
    double _Complex d = csqrt((double _Complex)(b * b - 4 * a * c));
    *r1 = (-b + d) / (2 * a);
    *r2 = (-b - d) / (2 * a);
    return cimag(d) != 0;
}

static int julia(float _Complex z, float _Complex c) {
    int n = 0;
    while (n < 100 && crealf(z) * crealf(z) + cimagf(z) * cimagf(z) < 4.0f) {
        z = z * z + c;
        n++;
    }
    return n;
}

float _Complex scale(float _Complex z, float s) { return z * s; }

int main(void) {
    double _Complex x[N];
    for (int i = 0; i < N; i++)
        x[i] = sin(i * 0.7) + cos(i * 1.3) * I;
    fft(x, N);
    for (int i = 0; i < N; i++)
        printf("X[%d] = %.6f %+.6fi\n", i, creal(x[i]), cimag(x[i]));

    for (double f = 10; f < 1e5; f *= 10) {
        double _Complex z = impedance(50, 1e-3, 1e-6, 2 * M_PI * f);
        printf("f=%g |Z|=%.6f arg=%.6f re=%.6f\n", f, cabs(z), carg(z), __real__ z);
    }
    double _Complex r1, r2;
    int cplx = roots(1, 2, 5, &r1, &r2);
    printf("roots %d: %g%+gi %g%+gi\n", cplx, creal(r1), cimag(r1), creal(r2), cimag(r2));
    cplx = roots(1, -3, 2, &r1, &r2);
    printf("roots %d: %g%+gi %g%+gi\n", cplx, creal(r1), cimag(r1), creal(r2), cimag(r2));

    long total = 0;
    for (int py = 0; py < 12; py++) {
        for (int px = 0; px < 30; px++) {
            float _Complex z = (px - 15) / 10.0f + (py - 6) / 6.0f * I;
            int n = julia(z, -0.8f + 0.156f * I);
            total += n;
            putchar(" .:-=+*#%@"[n % 10]);
        }
        putchar('\n');
    }
    printf("total %ld\n", total);

    sample s = {1.0 + 2.0 * I, 3.0f - 1.0f * I, 7};
    s.z = s.z * conj(s.z) + s.w;
    s.w = scale(s.w, 2.0f);
    printf("s %g %g %g %g %d\n", creal(s.z), cimag(s.z), crealf(s.w), cimagf(s.w), s.tag);
    double _Complex acc = origin;
    for (int k = 0; k < 4; k++)
        acc += twiddle_table[k] * (k + 1);
    printf("acc %g %g eq %d ne %d\n", creal(acc), cimag(acc), acc == acc, acc != origin);
    float _Complex fz = acc;
    double back = fz;
    _Bool nz = fz;
    printf("narrow %.7g %.7g back %.9g nz %d neg %g %g\n", crealf(fz), cimagf(fz), back, nz, creal(-acc), cimag(-acc));
    double _Complex p = cpow(acc, 2.0);
    double _Complex q = clog(-1.0) + csin(0.5 * I);
    printf("p %g %g q %g %g\n", creal(p), cimag(p), creal(q), cimag(q));
    return 0;
}
