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

/* A goto past the switch's test into its body, where a case label nested in a statement would match the value
 * the test would have given (0 from the call's stand-in, k from the pure test): it must not be dispatched. */
static int next_value(void)
{
  calls++;
  return 7;
}

static int nested_impure(int k)
{
  int r = 0;
  if (k == 5)
    goto inside;
  switch (next_value()) {
  case 1:
    r = 1;
    break;
  default:
    if (k) {
    case 0:
      r += 100;
    }
    r += 10;
  inside:
    r += 1000;
    break;
  }
  return r;
}

static int nested_pure(int k)
{
  int r = 0;
  if (k == 5)
    goto inside;
  switch (k) {
  case 1:
    r = 1;
    break;
  default:
    if (k > 5) {
    case 5:
      r += 100;
    }
    r += 10;
  inside:
    r += 1000;
    break;
  }
  return r;
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
  for (int k = 0; k < 8; k++) {
    calls = 0;
    int a = nested_impure(k);
    printf("%d:%d/%d ", a, calls, nested_pure(k));
  }
  printf("\n");
  return 0;
}
