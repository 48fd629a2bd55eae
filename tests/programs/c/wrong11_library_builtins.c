/* GNU builtins of C library functions gcc's builtins tests use: long double complex parts, stpcpy, stpncpy,
   mempcpy, bcopy, bswap128; and library functions renamed by asm labels, whose `__builtin_` forms reach the renamed
   function too (counted), as gcc's do. */
#include <complex.h>
#include <stdio.h>
#include <string.h>

typedef __SIZE_TYPE__ size_t;
extern char *strstr(const char *, const char *) __asm__("wrong11_strstr");
extern void *memcpy(void *, const void *, size_t) __asm__("wrong11_memcpy");
int strstr_calls, memcpy_calls;

__attribute__((used)) char *wrong11_strstr(const char *h, const char *n) {
  strstr_calls++;
  size_t k = strlen(n);
  for (; *h; h++)
    if (strncmp(h, n, k) == 0)
      return (char *)h;
  return k ? 0 : (char *)h;
}

__attribute__((used)) void *wrong11_memcpy(void *d, const void *s, size_t n) {
  memcpy_calls++;
  char *dd = d;
  const char *ss = s;
  while (n--)
    *dd++ = *ss++;
  return d;
}

int main(void) {
  long double _Complex z = 1.5L + 2.25Li;
  long double _Complex c = __builtin_conjl(z);
  printf("%Lg %Lg %Lg %Lg\n", __real__ c, __imag__ c, __builtin_creall(z), __builtin_cimagl(c));

  char buf[32], out[32];
  char *end = __builtin_stpcpy(buf, "hello");
  char *after = __builtin_mempcpy(out, "abcdef", 4);
  __builtin_bcopy(buf, out + 4, 6);
  char *pad = __builtin_stpncpy(buf + 10, "xy", 5);
  printf("%d %d %s %d %d\n", (int)(end - buf), (int)(after - out), out, (int)(pad - buf), buf[13]);

  volatile unsigned __int128 wide = ((unsigned __int128)0x0102030405060708ULL << 64) | 0x090a0b0c0d0e0f10ULL;
  unsigned __int128 swapped = __builtin_bswap128(wide);
  printf("%016llx %016llx\n", (unsigned long long)(swapped >> 64), (unsigned long long)swapped);

  char *volatile hay = "find the needle here";
  char *volatile needle = "needle";
  volatile size_t n = 5;
  char *hit = __builtin_strstr(hay, needle);
  char *hit2 = strstr(hay, "here");
  __builtin_memcpy(out, hay, n);
  memcpy(out + 5, needle, n);
  out[10] = 0;
  printf("%d %d %s strstr calls %d memcpy calls %d\n", (int)(hit - hay), (int)(hit2 - hay), out, strstr_calls,
         memcpy_calls);
  return 0;
}
