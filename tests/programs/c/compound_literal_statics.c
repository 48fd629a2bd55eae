/* Compound literals as initializers of static objects (a GNU extension gcc accepts: the literal's braced list
   initializes the object), as driver tables and option defaults are written:
   `static const struct opts defaults = (struct opts){...};`, a literal member inside a braced list, in an array,
   a function's static local and a union. Also gcc's initializers of a static object's flexible array member
   (the object grows by the elements given): braced, a string, records with braces elided. */
#include <stdio.h>
typedef struct { int x, y; } point;
typedef struct {} marker;                    /* an empty struct (GNU C): size 0 */
struct region { unsigned char id; marker m; point lo, hi; const char *name; };
union cell { int i; float f; };

struct region first = { 1, (marker){}, (point){2, 3}, { .y = 5 }, "first" };
struct region second = (struct region){ .hi = {7, 8}, .name = "second" };
point corners[] = { (point){1, 1}, {2, 2}, (point){ .y = 3 } };
static const point origin = (point){0, -1};
union cell scale = (union cell){ .f = 1.5f };

struct packet { char *tag; int words[]; };
struct label { char *tag; char text[]; };
struct polyline { int n; struct { short x, y; } pts[]; };
struct packet hello = { "hello", {1, 2, 3} };
static struct label banner = { "banner", "welcome" };
static struct polyline triangle = { 3, {{1, 2}, {3, 4}, 5, 6} };
int after_them = 77;

static int step(int k) {
  static point at = (point){4, 5};           /* initialized once, then kept */
  at.x += k;
  return at.x * 10 + at.y;
}

int main(void) {
  int i, a, b;
  printf("%d %d %d %d %d %s\n", first.id, first.lo.x, first.lo.y, first.hi.x, first.hi.y, first.name);
  printf("%d %d %d %d %s\n", second.id, second.lo.x, second.hi.x, second.hi.y, second.name);
  for (i = 0; i < 3; i++)
    printf("%d,%d ", corners[i].x, corners[i].y);
  printf("%d %d %zu\n", origin.x, origin.y, sizeof(struct region));
  printf("%s %d%d%d %s %s %d\n", hello.tag, hello.words[0], hello.words[1], hello.words[2], banner.tag,
         banner.text, after_them);
  for (i = 0; i < triangle.n; i++)
    printf("(%d,%d)", triangle.pts[i].x, triangle.pts[i].y);
  printf(" %zu %zu\n", sizeof banner, sizeof triangle);
  a = step(1);
  b = step(2);
  printf("%d %d %d\n", a, b, (int)(scale.f * 2));
  return 0;
}
