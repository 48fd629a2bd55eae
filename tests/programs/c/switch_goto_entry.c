/* A goto into a case of a later switch whose controlling expression is a call (a tokenizer's byte-type lookup
 * through a table of functions, as XML scanners write it): entering through the goto must not call it. */
#include <stdio.h>

struct encoding { int (*byte_type)(const struct encoding *, const char *); };

static int calls;

static int ascii_type(const struct encoding *enc, const char *p)
{
  (void)enc;
  calls++;
  return *p == '>' ? 2 : *p == '/' ? 3 : *p == ' ' ? 1 : 0;
}

#define BYTE_TYPE(enc, p) ((enc)->byte_type((enc), (p)))

static int scan(const struct encoding *enc, const char *p)
{
  switch (BYTE_TYPE(enc, p)) {
  case 1:
    break;
  case 2:
    goto gt;
  case 3:
    goto sol;
  default:
    return -1;
  }
  for (;;) {
    p++;
    switch (BYTE_TYPE(enc, p)) {
    case 1:
      continue;
    case 2:
    gt:
      return 100 + calls;
    case 3:
    sol:
      if (p[1] == '>')
        return 200 + calls;
      return -3;
    default:
      return -2;
    }
  }
}

int main(void)
{
  const struct encoding enc = { ascii_type };
  const char *inputs[] = { " >", "> ", "/>", "   />", "x", " x", "/x" };
  for (int i = 0; i < 7; i++) {
    calls = 0;
    printf("%d ", scan(&enc, inputs[i]));
  }
  printf("\n");
  return 0;
}
