/* Every math.h function pgcc maps to the math dialect, and the __builtin_ forms of those and of other libm
   functions, in double and float, on values known only at run time: printed for comparison with gcc. */
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
  (void)argv;
  double x = 0.3 * argc, y = 1.7 * argc;
  float xf = x, yf = y;
#define U(n) printf(#n " %.17g %.9g\n", n(x), (double)n##f(xf));
#define B(n) printf(#n " %.17g %.9g\n", n(x, y), (double)n##f(xf, yf));
  U(sqrt) U(exp) U(log) U(sin) U(cos) U(tan) U(atan) U(asin) U(acos) U(sinh) U(cosh) U(tanh) U(log10) U(log2)
  U(exp2) U(expm1) U(log1p) U(erf) U(cbrt) U(floor) U(ceil) U(round) U(trunc) U(fabs)
  B(pow) B(atan2) B(fmax) B(fmin) B(fmod) B(copysign)
#undef U
#undef B
#define U(n) printf("__builtin_" #n " %.17g %.9g\n", __builtin_##n(x), (double)__builtin_##n##f(xf));
#define B(n) printf("__builtin_" #n " %.17g %.9g\n", __builtin_##n(x, y), (double)__builtin_##n##f(xf, yf));
  U(sqrt) U(exp) U(log) U(sin) U(cos) U(tan) U(atan) U(asin) U(acos) U(sinh) U(cosh) U(tanh) U(log10) U(log2)
  U(exp2) U(expm1) U(log1p) U(erf) U(cbrt) U(floor) U(ceil) U(round) U(trunc) U(fabs)
  U(erfc) U(lgamma) U(tgamma) U(rint) U(nearbyint) U(logb) U(asinh) U(acosh) U(atanh)
  B(pow) B(atan2) B(fmax) B(fmin) B(fmod) B(copysign) B(hypot) B(remainder) B(nextafter) B(fdim)
  printf("fma %.17g %.9g\n", __builtin_fma(x, y, x), (double)__builtin_fmaf(xf, yf, xf));
  return 0;
}
