#include <stdio.h>
#include <string.h>
struct P { int x; double y; };
struct Q { struct P p[2]; int a[3]; const char *name; unsigned b:3; int c:5; };
union U { int i; float f; unsigned char bytes[4]; };
typedef struct Node { int v; struct Node *next; } Node;
enum Color { RED, GREEN = 5, BLUE };
struct P gp = {7, 1.5};
struct Q gq = {{{1, 2.0}, {3, 4.0}}, {7, 8}, "global", 5, -3};
const char *names[] = {"zero", "one", "two"};
static int counter;

struct P make(int x, double y) { struct P r; r.x = x; r.y = y; return r; }
double sum(struct P p) { return p.x + p.y; }
void bump(struct P *p) { p->x++; (*p).y *= 2; }
struct Big { long a[5]; };
struct Big big_make(long s) { struct Big b; for (int i = 0; i < 5; i++) b.a[i] = s + i; return b; }
long big_sum(struct Big b) { long t = 0; for (int i = 0; i < 5; i++) t += b.a[i]; return t; }

int main(void) {
  struct P p = {1, 2.5};
  struct P q = {.y = 3.0};
  union U u = {.f = 1.0f};
  struct Q s = {{{1, 2.0}, {3, 4.0}}, {7, 8}, "hi", 5, -3};
  printf("%d %g %d %g\n", p.x, p.y, q.x, q.y);
  printf("%x %d %d %d %d\n", u.i, u.bytes[0], u.bytes[1], u.bytes[2], u.bytes[3]);
  printf("%d %g %d %g %d %d %d %s %u %d\n", s.p[0].x, s.p[0].y, s.p[1].x, s.p[1].y, s.a[0], s.a[1], s.a[2], s.name, s.b, s.c);
  s.c = 17; s.b = 9;
  printf("%u %d\n", s.b, s.c);
  s.c -= 3; s.b++;
  printf("%u %d\n", s.b, s.c);
  q = p;
  printf("%d %g\n", q.x, q.y);
  struct P r = make(4, 0.5);
  printf("%d %g %g\n", r.x, r.y, sum(r));
  bump(&r);
  printf("%d %g\n", r.x, r.y);
  struct P *pp = &r;
  struct P **ppp = &pp;
  (*ppp)->x = 42;
  printf("%d %d\n", r.x, pp->x);
  struct Big b = big_make(10);
  printf("%ld %ld\n", big_sum(b), b.a[4]);
  Node n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2};
  int total = 0;
  for (Node *it = &n1; it; it = it->next) total += it->v;
  printf("%d\n", total);
  struct P arr[4];
  for (int i = 0; i < 4; i++) { arr[i].x = i; arr[i].y = i * 0.5; }
  struct P *e = arr + 3;
  printf("%d %g %ld\n", e->x, (e - 1)->y, (long)(e - arr));
  printf("%d %d %d\n", RED, GREEN, BLUE);
  printf("%d %g %s %s %d\n", gp.x, gp.y, gq.name, names[2], gq.c);
  gp.x += 5; counter++;
  printf("%d %d %zu %zu\n", gp.x, counter, sizeof(struct Q), sizeof(union U));
  int *ip = &s.a[1];
  *ip = 99;
  printf("%d %d\n", s.a[1], ip[1]);
  char buf[32];
  strcpy(buf, "abc");
  strcat(buf, names[1]);
  printf("%s %zu\n", buf, strlen(buf));
  return 0;
}
