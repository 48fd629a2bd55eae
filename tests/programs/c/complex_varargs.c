/* Complex values through a variadic function: va_arg of double and float _Complex, past the SSE registers. */
#include <complex.h>
#include <stdarg.h>
#include <stdio.h>
void total(double _Complex *out, int n, ...) {
    va_list ap;
    va_start(ap, n);
    double _Complex s = 0;
    for (int i = 0; i < n; i++) {
        double _Complex z = va_arg(ap, double _Complex);
        float _Complex w = va_arg(ap, float _Complex);
        s += z * w;
    }
    va_end(ap);
    *out = s;
}
int main(void) {
    double _Complex t; total(&t, 5, 1.0 + 1.0 * I, 2.0f - 1.0f * I, 3.0, 1.0f * I, -2.0 * I, 0.5f + 0.5f * I,
                              4.0 + 4.0 * I, 1.0f, 0.25 - 1.0 * I, 2.0f);
    printf("%g %g\n", creal(t), cimag(t));
    return 0;
}
