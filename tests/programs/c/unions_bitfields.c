#include <stdio.h>
#include <string.h>
typedef union { unsigned int u; float f; unsigned char b[4]; } Word;
struct Flags { unsigned ready : 1; unsigned mode : 3; int delta : 5; unsigned : 0; unsigned long big : 40; signed char tiny : 2; };
#pragma pack(push, 1)
struct Packed { char tag; unsigned wide : 20; int neg : 13; short s; };
#pragma pack(pop)
enum Level { LOW = -1, MID = 3, HIGH };
typedef enum Level Level;
struct Flags gflags = {1, 5, -7, 123456789012UL, -1};
union Tagged { struct { int kind; double v; } num; struct { int kind; char s[12]; } str; };

int main(void) {
  Word w;
  w.f = 1.0f;
  printf("%08x %d %d\n", w.u, w.b[3], w.b[0]);
  w.u = 0x40490fdb;
  printf("%.5f\n", w.f);
  struct Flags f;
  memset(&f, 0, sizeof f);
  f.ready = 1; f.mode = 6; f.delta = -3; f.big = 0xFFFFFFFFFFUL; f.tiny = 1;
  printf("%u %u %d %lu %d\n", f.ready, f.mode, f.delta, f.big, f.tiny);
  f.mode += 3; f.delta = 20; f.tiny = 3; f.big++;
  printf("%u %d %d %lu %zu\n", f.mode, f.delta, f.tiny, f.big, sizeof f);
  printf("%u %u %d %lu %d\n", gflags.ready, gflags.mode, gflags.delta, gflags.big, gflags.tiny);
  int d = f.delta++;
  printf("%d %d\n", d, f.delta);
  struct Packed p = {'x', 0xABCDE, -1000, 77};
  printf("%zu %c %x %d %d\n", sizeof p, p.tag, p.wide, p.neg, p.s);
  p.wide = 0xFFFFF; p.neg = 4095;
  printf("%x %d %d\n", p.wide, p.neg, p.s);
  Level l = HIGH;
  printf("%d %d %d %zu\n", LOW, MID, l, sizeof(Level));
  union Tagged t;
  t.num.kind = 1; t.num.v = 2.5;
  printf("%d %g\n", t.str.kind, t.num.v);
  strcpy(t.str.s, "union");
  printf("%d %s %zu\n", t.num.kind, t.str.s, sizeof t);
  union Tagged u = t;
  printf("%s\n", u.str.s);
  return 0;
}
