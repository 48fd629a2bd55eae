/* long double _Complex as numerical code writes it: globals initialized by constant expressions (each part
 * rounded once to x87 precision), arithmetic, libm's cexpl/cabsl/cargl (gcc-compiled: the x87 return in st0/st1
 * and arguments in memory), a struct holding one by value, arrays and pointers, va_arg, function pointers,
 * conversions to double/float complex, to int and to _Bool; long double members of initialized structs. */
#include <stdio.h>
#include <stdarg.h>
#include <complex.h>
typedef long double _Complex ldc;
static ldc table[3] = { 0.375L + 2.0L * I, -0.5L, 3.0L * I };  /* (parts that are doubles: see the test) */
static const ldc rotated = (1.0L / 3 + 0.1L * I) * (2 - 1.0L / 7 * I);
struct holder { int n; ldc z; long double scale; };
struct holder held = { 4, CMPLXL(0.1L, -1.0L / 9), 1.0L / 7 };
__attribute__((noinline)) static ldc mul_add(ldc a, ldc b, ldc c) { return a * b + c; }
__attribute__((noinline)) static long double norm2(const ldc *p) { return creall(*p) * creall(*p) + cimagl(*p) * cimagl(*p); }
__attribute__((noinline)) static struct holder twice(struct holder h) { h.z *= 2; h.n++; h.scale /= 3; return h; }
static void sum(ldc *out, int n, ...) {
  va_list ap; va_start(ap, n); ldc s = 0;
  for (int i = 0; i < n; i++) s = s * 1.5L + va_arg(ap, ldc);
  va_end(ap); *out = s;
}
static ldc (*conj_fn)(ldc) = conjl;
#define SHOW(name, z) printf("%s %.19Lg %.19Lg\n", name, creall(z), cimagl(z))
int main(void) {
  SHOW("table0", table[0]); SHOW("table2", table[2]); SHOW("rotated", rotated);
  SHOW("held", held.z); printf("held scale %.19Lg\n", held.scale);
  ldc z = 1.5L + 2.0L * I;
  ldc w = z * z + conjl(z);
  SHOW("w", w); printf("cabsl %.19Lg\n", cabsl(z));
  SHOW("w/z", w / z);
  ldc m = mul_add(table[0], table[2], table[1]);
  SHOW("mul_add", m); printf("norm2 %.19Lg\n", norm2(&m));
  struct holder h = twice(held);
  SHOW("twice", h.z); printf("twice %d %.19Lg\n", h.n, h.scale);
  ldc a[4];
  for (int i = 0; i < 4; i++) a[i] = i + (i / 10.0L) * I;
  ldc *p = &a[1]; *p *= 3; p[1] = -p[2] / 7;
  ldc s; sum(&s, 4, a[0], a[1], a[2], a[3]);
  ldc c = conj_fn(s);
  SHOW("sum", s); SHOW("conj", c);
  double _Complex dz = (double _Complex)w; float _Complex fz = w;
  printf("narrow %.17g %.9g %d %d %d\n", creal(dz), (double)cimagf(fz), (int)creall(w), (_Bool)c, a[3] == 3 + 0.3L * I);
  volatile ldc v = c / 3;
  SHOW("volatile", v);
  SHOW("cexpl", cexpl(1.0L * I * 3.14159265358979323846L));
  printf("cargl %.19Lg\n", cargl(z));
  return 0;
}
