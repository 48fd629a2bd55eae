/* Initializers that name an element twice (the later one wins, and a braced list or string replaces its whole
 * subobject, C11 6.7.9p19) and GNU range designators `[lo ... hi] = v`, in globals, locals and arrays of
 * records, numbers and pointers. */
#include <stdio.h>

struct kv { const char *k; int v; };
struct box { int a[3]; char name[6]; };
struct cell { int a, b[3]; };

static struct kv g[3] = { {"a", 1}, {"b", 2}, {"c", 3}, [1].k = "z", [2] = { .v = 9 } };
static int gm[2][3] = { {1, 2, 3}, {4, 5, 6}, [0] = { [2] = 7 } };
static char rows[2][5] = { "abcd", "efgh", [0] = "x" };
static struct box gb = { {1, 2, 3}, "hello", .a = { [1] = 8 }, .name = "hi" };
static const char *names[6] = { [0 ... 5] = "none", [3] = "three" };
static const char *labels[4] = { "a", "b", "c", "d", [1] = "x", [2] = 0 };
static int table[10] = { [0 ... 4] = 7, [5 ... 9] = 9, [2] = 1 };
static int grid[3][4] = { [1][1 ... 2] = 5, [2] = { [0 ... 3] = 8 }, [0][3] = 2 };
static struct cell cells[4] = { [0 ... 2].b[1 ... 2] = 6, [1 ... 3].a = 4, [3] = { 1, { [0 ... 1] = 3 } } };
static unsigned char classes[256] = { ['0' ... '9'] = 1, ['a' ... 'z'] = 2, ['A' ... 'Z'] = 2, ['_'] = 2 };

static const char *or_dash(const char *s) { return s ? s : "-"; }
static int handle_none(void) { return 0; }
static int handle_one(void) { return 1; }
typedef int (*handler)(void);
static const handler handlers[4] = { [0 ... 3] = &handle_none, [1] = handle_one };  /* a syscall-table style */

int main(void)
{
  struct kv l[2] = { {"m", 1}, {"n", 2}, [0] = { .v = 5 } };
  int m[2][3] = { {1, 2, 3}, {4, 5, 6}, [0] = { [2] = 7 } };
  char lr[2][5] = { "abcd", "efgh", [1] = "y" };
  struct box lb = { {1, 2, 3}, "hello", .a = { [1] = 8 }, .name = "hi" };
  int local[8] = { [1 ... 6] = 3, [4] = 5 };
  struct cell lc[3] = { [0 ... 2] = { 2, { 1, 2, 3 } }, [1].a = 9 };
  double weights[5] = { [0 ... 4] = 0.25, [2] = 1.5 };
  int fill = 0x42, span[9] = { [1 ... 5] = 9, [6 ... 8] = fill, [4 ... 6] = -fill + 1 };  /* variables, no effects */

  for (int i = 0; i < 9; i++)
    printf("%d ", span[i]);
  for (int i = 0; i < 4; i++)
    printf("%d", handlers[i]());
  printf("\n");
  for (int i = 0; i < 3; i++)
    printf("%s%d ", or_dash(g[i].k), g[i].v);
  for (int i = 0; i < 2; i++)
    printf("%s%d ", or_dash(l[i].k), l[i].v);
  for (int i = 0; i < 6; i++)
    printf("%d%d ", m[i / 3][i % 3], gm[i / 3][i % 3]);
  printf("\n");
  for (int i = 0; i < 10; i++)
    printf("%d.%d ", rows[i / 5][i % 5], lr[i / 5][i % 5]);
  printf("| %d %d %d %s %d | %d %d %d %s %d\n", gb.a[0], gb.a[1], gb.a[2], gb.name, gb.name[4], lb.a[0], lb.a[1],
         lb.a[2], lb.name, lb.name[4]);
  for (int i = 0; i < 6; i++)
    printf("%s ", names[i]);
  for (int i = 0; i < 4; i++)
    printf("%s ", or_dash(labels[i]));
  printf("\n");
  for (int i = 0; i < 10; i++)
    printf("%d", table[i]);
  printf(" ");
  for (int i = 0; i < 12; i++)
    printf("%d", grid[i / 4][i % 4]);
  printf(" ");
  for (int i = 0; i < 8; i++)
    printf("%d", local[i]);
  printf("\n");
  for (int i = 0; i < 4; i++)
    printf("%d:%d%d%d ", cells[i].a, cells[i].b[0], cells[i].b[1], cells[i].b[2]);
  for (int i = 0; i < 3; i++)
    printf("%d:%d%d%d ", lc[i].a, lc[i].b[0], lc[i].b[1], lc[i].b[2]);
  printf("%g %g\n", weights[1], weights[2]);
  int s = 0;
  for (int i = 0; i < 256; i++)
    s = s * 3 + classes[i];
  printf("%d\n", s);
  return 0;
}
