#include <stdio.h>
#include <string.h>
struct P { int x; double y; };
struct L { struct P pts[2]; const char *tag; };
struct L gl[2] = {1, 1.5, 2, 2.5, "first", {{{3, 3.5}, {4}}, "second"}};
static const struct P origin = {0};
int counter(void) { static struct P acc = {10, 0.5}; acc.x++; acc.y *= 2; return acc.x + (int)acc.y; }
struct P *find(struct L *l, int n, int x) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++)
      if (l[i].pts[j].x == x) return &l[i].pts[j];
  return NULL;
}
typedef struct { char name[8]; int score; } Entry;
int main(void) {
  printf("%d %g %d %g %s %d %g %d %g %s\n", gl[0].pts[0].x, gl[0].pts[0].y, gl[0].pts[1].x, gl[0].pts[1].y, gl[0].tag,
         gl[1].pts[0].x, gl[1].pts[0].y, gl[1].pts[1].x, gl[1].pts[1].y, gl[1].tag);
  printf("%d %g\n", origin.x, origin.y);
  int a = counter(); int b = counter();
  printf("%d %d\n", a, b);
  struct P *p = find(gl, 2, 4);
  printf("%d %g %ld\n", p->x, p->y, (long)(p - &gl[0].pts[0]));
  printf("%d\n", find(gl, 2, 99) == NULL);
  Entry es[3] = {{"bob", 3}, {"al", 9}, {"cy", 1}};
  Entry best = es[0];
  for (int i = 1; i < 3; i++) if (es[i].score > best.score) best = es[i];
  printf("%s %d %zu\n", best.name, best.score, strlen(es[2].name));
  Entry *ep = es;
  ep[2].name[0] = 'Z';
  printf("%s %c\n", es[2].name, (ep + 1)->name[1]);
  return 0;
}
