/* Functions written by macros (one definition instantiated per encoding, as XML and codec libraries do) whose
 * for loops leave out parts of their header: libclang shows only the parts that are there, and the tokens of a
 * macro expansion are the macro's invocation, so the parts are placed from the macro's definition.
 * (UTF-8 in a comment before them, as in author lists: “Jürgen Müller”, must not shift the offsets.) */
#include <stdio.h>
#include <string.h>

#define GET_LO_LE(p) ((unsigned char)(p)[0])
#define GET_HI_LE(p) ((unsigned char)(p)[1])
#define GET_LO_BE(p) ((unsigned char)(p)[1])
#define GET_HI_BE(p) ((unsigned char)(p)[0])

/* no init: from and fromLim come from the caller; the loop must stop at fromLim */
#define DEFINE_UTF16_TO_LATIN(E, LO, HI)                                      \
  static int E##to_latin(const char **fromP, const char *fromLim, char **toP,  \
                         const char *toLim) {                                  \
    const char *from = *fromP;                                                 \
    fromLim = from + (((fromLim - from) >> 1) << 1);                           \
    for (; from < fromLim; from += 2) {                                        \
      unsigned char lo = LO(from), hi = HI(from);                              \
      if (*toP == toLim) {                                                     \
        *fromP = from;                                                         \
        return 2;                                                              \
      }                                                                        \
      switch (hi) {                                                            \
      case 0:                                                                  \
        *(*toP)++ = (char)lo;                                                  \
        break;                                                                 \
      default:                                                                 \
        *(*toP)++ = '?';                                                       \
        break;                                                                 \
      }                                                                        \
    }                                                                          \
    *fromP = from;                                                             \
    return from < fromLim;                                                     \
  }

DEFINE_UTF16_TO_LATIN(little_, GET_LO_LE, GET_HI_LE)
DEFINE_UTF16_TO_LATIN(big_, GET_LO_BE, GET_HI_BE)

/* no condition (left with break), no increment (stepped in the body), no init */
#define DEFINE_SCANNERS(T)                                                     \
  static int count_##T(const T *p, int n, T stop) {                           \
    int k = 0;                                                                 \
    for (;;) {                                                                 \
      if (k >= n || p[k] == stop)                                              \
        break;                                                                 \
      k++;                                                                     \
    }                                                                          \
    return k;                                                                  \
  }                                                                            \
  static int sum_##T(const T *p, int n) {                                      \
    int i = 0, s = 0;                                                          \
    for (; i < n;) {                                                           \
      s += (int)p[i];                                                          \
      i += 2;                                                                  \
    }                                                                          \
    for (int j = 1; j < n;)                                                    \
      s -= (int)p[j++];                                                        \
    return s;                                                                  \
  }

DEFINE_SCANNERS(int)
DEFINE_SCANNERS(short)

int main(void)
{
  static const char le[] = "h\0e\0\x04\x0el\0o\0";
  static const char be[] = "\0h\0e\x0e\x04\0l\0o";
  for (int len = 0; len <= 10; len++)
    for (int room = 1; room <= 6; room += 5) {
      char out[16], *to = out;
      const char *from = le;
      int r = little_to_latin(&from, le + len, &to, out + room);
      char out2[16], *to2 = out2;
      const char *from2 = be;
      int r2 = big_to_latin(&from2, be + len, &to2, out2 + room);
      printf("%d/%d:%d %ld %.*s|%d %ld %.*s ", len, room, r, (long)(from - le), (int)(to - out), out, r2,
             (long)(from2 - be), (int)(to2 - out2), out2);
    }
  printf("\n");
  int vi[] = {3, 1, 4, 1, 5, 9, 2, 6};
  short vs[] = {2, 7, 1, 8, 2, 8};
  printf("%d %d %d %d %d %d\n", count_int(vi, 8, 5), count_int(vi, 8, 7), count_short(vs, 6, 8), sum_int(vi, 8),
         sum_short(vs, 6), sum_int(vi, 0));
  return 0;
}
