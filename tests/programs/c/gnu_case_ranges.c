/* GNU case ranges (`case 'a' ... 'z':`) as lexers and protocol decoders write them: short ranges, ranges of
 * thousands of values, unsigned and negative bounds, ranges beside single labels and fall-through. */
#include <stdio.h>
#include <string.h>

enum token { T_OTHER, T_WORD, T_DIGIT, T_SPACE, T_PUNCT, T_HIGH };

static enum token classify(unsigned char c)
{
  switch (c) {
  case 'a' ... 'z':
  case 'A' ... 'Z':
  case '_':
    return T_WORD;
  case '0' ... '9':
    return T_DIGIT;
  case ' ': case '\t': case '\n':
    return T_SPACE;
  case '!' ... '/':
  case ':' ... '@':
    return T_PUNCT;
  case 0x80 ... 0xff:
    return T_HIGH;
  default:
    return T_OTHER;
  }
}

static const char *status_class(int code)
{
  const char *s = "unknown";
  switch (code) {
  case 100 ... 199: s = "informational"; break;
  case 200 ... 299: s = "success"; break;
  case 304:         s = "not modified"; break;
  case 300 ... 303:
  case 305 ... 399: s = "redirect"; break;
  case 400 ... 499: s = "client error"; break;
  case 500 ... 599: s = "server error"; break;
  case 1000 ... 65535: s = "out of range"; break;   /* far more values than a table would hold */
  case -100000 ... -1: s = "negative"; break;
  }
  return s;
}

static int weight(long v)
{
  int w = 0;
  switch (v) {
  case -3 ... -1:
    w += 100;
    /* fall through */
  case 0:
    w += 10;
    /* fall through */
  case 1 ... 2:
    w += 1;
    break;
  case 10 ... 5:   /* an empty range: matches nothing */
    w = -1;
    break;
  case 3000000000L ... 3000000600L:
    w = 7;
    break;
  default:
    w = 1000;
  }
  return w;
}

/* A case range on a label nested in a loop of the switch body (reached through the switch's dispatch). */
static int drain(int n)
{
  int steps = 0;
  switch (n) {
  case 0:
    while (n) {
    case 1 ... 3:
      n--;
      steps++;
    }
  }
  return steps * 10 + n;
}

int main(int argc, char **argv)
{
  const char *text = "Hello, World_42!\tx = y*2 @home \xe9t\xe9";
  int counts[6] = {0};
  for (size_t i = 0; i < strlen(text); i++)
    counts[classify((unsigned char)text[i])]++;
  for (int k = 0; k < 6; k++)
    printf("%d ", counts[k]);
  printf("\n");
  int codes[] = {100, 150, 204, 299, 300, 304, 305, 404, 503, 600, 999, 1000, 40000, 65535, 65536, -1, -7, -100001};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
    printf("%d %s\n", codes[i], status_class(codes[i]));
  long vals[] = {-4, -3, -1, 0, 1, 2, 3, 5, 7, 10, 3000000000L, 3000000600L, 3000000601L, argc};
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
    printf("%ld:%d ", vals[i], weight(vals[i]));
  printf("\n");
  for (int n = -1; n < 6; n++)
    printf("%d ", drain(n));
  printf("\n");
  (void)argv;
  return 0;
}
