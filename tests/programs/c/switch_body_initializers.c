/* Declarations with initializers directly in a switch body (a JSON parser's `case 'u': int hexvalue = unhex4(in);`):
   declared for the whole body, initialized where they stand; a case entered past one assigns it itself. */
#include <stdio.h>
static int unhex(const char *s) { int v = 0; for (int i = 0; i < 2; i++) v = v * 16 + (s[i] - '0'); return v; }
static const char *decode(const char *in, char *out, int *total) {
  for (; *in; in++) {
    switch (*in) {
    case 'n': *out++ = '\n'; break;
    case 'u':
      if (!in[1] || !in[2]) return "short";
      int hexvalue = unhex(in + 1);
      if (hexvalue < 0) return "bad";
      unsigned long code = (unsigned long)hexvalue * 3, *where = &code;
      *total += (int)*where;
      in += 2;
      break;
    case 'x': {
      int other = 5;
      *total += other;
      break;
    }
    case 'f':
      code = 7;  /* entered past the declaration's initializer: assigned here */
      *total += (int)code;
      break;
    default: *out++ = *in;
    }
  }
  *out = 0;
  return 0;
}
int main(void) {
  char buf[64]; int total = 0;
  const char *err = decode("abu12nxcfu09", buf, &total);
  printf("%s %d [%s]\n", err ? err : "ok", total, buf);
  int kind = 3, r = 0;
  switch (kind) {
    int pre;
  case 3:
    pre = 10;
    int later = pre * 2;
    r = later + 1;
  case 4:
    r += 100;
  }
  printf("%d\n", r);
  return 0;
}
