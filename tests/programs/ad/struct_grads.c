/* Several active scalars: reverse mode returns their gradients as a struct (one field each, in order). */
#include <stdio.h>
#include <math.h>
typedef struct { double dx, dy, dz; } grads3;
extern grads3 __enzyme_autodiff(void *, ...);
extern int enzyme_const;
double f(double x, double y, int k, double z) { return sin(x * y) * k + x * exp(z) - y * z * z; }
int main() {
  double x = 0.3, y = 1.2, z = -0.4, h = 1e-6;
  grads3 g = __enzyme_autodiff((void *)f, x, y, 3, z);
  printf("dx %.10g %.10g\n", g.dx, (f(x + h, y, 3, z) - f(x - h, y, 3, z)) / (2 * h));
  printf("dy %.10g %.10g\n", g.dy, (f(x, y + h, 3, z) - f(x, y - h, 3, z)) / (2 * h));
  printf("dz %.10g %.10g\n", g.dz, (f(x, y, 3, z + h) - f(x, y, 3, z - h)) / (2 * h));
  return 0;
}
