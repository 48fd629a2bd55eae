/* Addresses of the parts of complex objects (`&__imag__ z`, a local's and a member's) and of string literals
   (`&"abc"`, an array object), from gcc.dg/builtin-object-size-*.c: both were errors. */
#include <stdio.h>

struct B { int a; double _Complex f; } x;

int main(void) {
  double _Complex z = 1.0 + 2.0i;
  double *re = &__real__ z, *im = &__imag__ z;
  *im = 5.0;
  *re += 0.5;
  double *xi = &__imag__ x.f;
  *xi = 3.0;
  float _Complex w = 0;
  float *wi = &__imag__ w;
  wi[0] = 7.0f;
  const char (*lit)[9] = &"abcd\0efg";
  const char *q = *&"xyz";
  printf("%g %g %g %g %zu %c %c %s\n", __real__ z, __imag__ z, __imag__ x.f, __imag__ w, sizeof *lit, (*lit)[5],
         q[1], *&"hi");
  return 0;
}
