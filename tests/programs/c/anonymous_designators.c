/* C11 anonymous structs and unions, initialized through designators that name their members (`.x = 3` where x
 * lives in an anonymous struct inside an anonymous union), in locals, globals and arrays of them. */
#include <stdio.h>

struct point { union { struct { int x, y; }; int v[2]; }; int tag; };
struct reg {
  int kind;
  union { struct { short lo, hi; }; int word; };
  struct { char a, b; };
};

static struct point origin = { .y = 9, .tag = 2 };
static struct reg table[2] = { { .kind = 1, .hi = 3, .b = 'q' }, { .word = 0x10002, .a = 'z' } };

static int sum(struct point p) { return p.v[0] + p.v[1] * 10 + p.tag * 100; }

int main(void)
{
  struct point p = { .x = 3, .y = 4, .tag = 1 };
  struct reg r = { .lo = 5, .kind = 7, .a = 'k', .b = 'm' };
  struct point q[3] = { [1] = { .y = 6 }, [2].x = 8, [0] = { .tag = 5, .x = 1 } };
  printf("%d %d %d | %d %d %d\n", p.v[0], p.v[1], p.tag, origin.x, origin.y, origin.tag);
  printf("%d %d %d %c %c\n", r.kind, r.lo, r.hi, r.a, r.b);
  for (int i = 0; i < 2; i++)
    printf("%d %d %d %d %d %d\n", table[i].kind, table[i].lo, table[i].hi, table[i].word, table[i].a, table[i].b);
  for (int i = 0; i < 3; i++)
    printf("%d ", sum(q[i]));
  printf("%d\n", sum((struct point){ .y = 2, .x = 1 }));
  return 0;
}
