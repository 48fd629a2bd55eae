/* Another name for a definition, as C libraries spell it: __attribute__((alias)) written directly and through
   glibc-style macros (`alias(#name)`, with `__typeof` for the prototype), weak and strong, on static and external
   functions, with records by value, variadic functions and the alias's address taken; asm labels on functions and
   variables. */
#include <stdarg.h>
#include <stdio.h>

#define export_alias(name, aliasname) export_alias_(name, aliasname)
#define export_alias_(name, aliasname) \
  extern __typeof(name) aliasname __attribute__((weak, alias(#name)));

#define strong_alias(alias, symbol) extern __typeof(symbol) alias __attribute__((__alias__(#symbol)))

struct span { double lo, hi, step; long count; };

static double span_width(struct span s) { return (s.hi - s.lo) * s.count + s.step; }
export_alias(span_width, width_of)

static long total(int n, ...) {
  va_list ap;
  long t = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) t += va_arg(ap, long) * (i + 1);
  va_end(ap);
  return t;
}
extern long weighted_total(int n, ...) __attribute__((alias("total")));

unsigned mix(unsigned h, unsigned c) { return (h ^ c) * 16777619u; }
unsigned mix_byte(unsigned h, unsigned c) __attribute__((alias("mix")));
export_alias(mix, mix_weak)
strong_alias(mix_again, mix);

/* asm labels: a declaration names the symbol it stands for */
int scaled(int x) __asm__("scaled_impl");
int scaled(int x) { return x * 7; }
extern int scaled_again(int) __asm__("scaled_impl");
int tally __asm__("tally_store") = 5;
extern int tally_view __asm__("tally_store");

int main(void) {
  struct span s = {1.25, 4.5, 0.5, 3};
  double (*w)(struct span) = width_of;
  unsigned (*m)(unsigned, unsigned) = mix_byte;
  unsigned h = 2166136261u;
  for (const char *p = "aliases"; *p; p++) h = (p[0] & 1) ? mix_byte(h, (unsigned char)*p) : mix_weak(h, *p);
  printf("%.4f %.4f\n", width_of(s), w(s));
  printf("%ld %ld\n", weighted_total(3, 10L, -4L, 7L), weighted_total(0));
  printf("%u %u %d %u\n", h, m(1u, 2u), m == mix, mix_again(3u, 4u));
  tally_view += scaled(3);
  printf("%d %d %d\n", scaled_again(2), tally, tally_view);
  return 0;
}
