#include <stdarg.h>
#include <stdio.h>
#include <string.h>
/* Variadic functions whose fixed parameters or result are structs (a JSON library's `jv fmt(const char *, ...)`):
   in registers, in memory (byval) and through a hidden result address (sret), with structs in the variadic tail. */
typedef struct { int kind; int size; long u; } jv;       /* 16 bytes: two INTEGER eightbytes */
typedef struct { double re, im; } cpx;                     /* SSE, SSE */
typedef struct { char text[40]; int n; } big;              /* memory */
jv make_fmt(const char *fmt, ...) {
  va_list ap; va_start(ap, fmt);
  jv r = {1, 0, 0};
  for (const char *p = fmt; *p; p++) { r.size++; if (*p == 'd') r.u += va_arg(ap, int); else if (*p == 'f') r.u += (long)va_arg(ap, double); }
  va_end(ap);
  return r;
}
big describe(big seed, int count, ...) {
  va_list ap; va_start(ap, count);
  for (int i = 0; i < count; i++) { cpx c = va_arg(ap, cpx); seed.n += (int)(c.re * 10 + c.im); }
  va_end(ap);
  strcat(seed.text, "!");
  return seed;
}
cpx sum_pairs(cpx first, int n, ...) {
  va_list ap; va_start(ap, n);
  for (int i = 0; i < n; i++) { jv j = va_arg(ap, jv); first.re += j.u; first.im += j.size; }
  va_end(ap);
  return first;
}
big pick_big(int skip, ...) {  /* an sret result and structs in memory in the variadic tail */
  va_list ap; va_start(ap, skip);
  while (skip--) (void)va_arg(ap, double);
  big r = va_arg(ap, big);
  va_end(ap);
  r.n *= 2;
  return r;
}
