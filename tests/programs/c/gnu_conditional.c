/* GNU's conditional with the middle operand left out, `x ?: y`, as allocation wrappers and option parsers use
 * it: x is evaluated once, its value is the result when nonzero, y is evaluated only otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define die_oom() (fprintf(stderr, "out of memory\n"), exit(3), NULL)
#define xmalloc(n) (malloc(n) ?: die_oom())
#define xstrdup(s) (strcpy((malloc(strlen(s) + 1) ?: die_oom()), (s)))

struct option { const char *name; const char *fallback; int value; };

static int counter;
static int tick(void) { return counter++; }
static int fallbacks;
static long fallback(long v) { fallbacks++; return v; }

static const char *name_of(const struct option *o) { return o->name ?: o->fallback ?: "(none)"; }

static struct option *find(struct option *opts, int n, const char *key)
{
  for (int i = 0; i < n; i++)
    if (opts[i].name && strcmp(opts[i].name, key) == 0)
      return &opts[i];
  return NULL;
}

int main(int argc, char **argv)
{
  char *copy = xstrdup(argv[0]);
  int *buf = xmalloc(8 * sizeof *buf);
  for (int i = 0; i < 8; i++)
    buf[i] = i * i;
  printf("copy ok: %d, buf[7] = %d\n", strcmp(copy, argv[0]) == 0, buf[7]);

  int a = tick() ?: 40, b = tick() ?: 41, c = tick() ?: 42;   /* 0 -> 40, then 1, 2 */
  printf("%d %d %d counter=%d\n", a, b, c, counter);

  long l = (long)argc - 1 ?: fallback(-5);
  long m = (long)argc ?: fallback(-6);
  printf("%ld %ld fallbacks=%d\n", l, m, fallbacks);

  double d = 0.0 ?: 2.5, e = 1.5 ?: 9.0;
  unsigned char uc = (unsigned char)256 ?: 7;
  printf("%g %g %u\n", d, e, uc);

  struct option opts[] = { {"verbose", NULL, 1}, {NULL, "quiet", 2}, {NULL, NULL, 3} };
  for (int i = 0; i < 3; i++)
    printf("option %d: %s\n", i, name_of(&opts[i]));
  struct option *o = find(opts, 3, "missing") ?: &opts[1];
  printf("found value %d\n", (find(opts, 3, "verbose") ?: o)->value + o->value);

  const char *home = getenv("PGCC_SURELY_UNSET_VARIABLE") ?: "/nonexistent";
  int total = 0;
  for (int i = 0; i < 5; i++)
    total += (i & 1 ?: 10) + (buf[i] ?: 100);
  if (buf[0] ?: buf[1] ?: 0)
    total += 1000;
  printf("%s %d\n", home, total);
  free(copy);
  free(buf);
  return 0;
}
