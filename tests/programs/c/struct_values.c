#include <stdio.h>
struct P { int x; double y; };
struct V { int n; double d[]; };
struct M { double m[2][3]; struct P grid[2][2]; };
double norm(struct P p) { return p.x * p.y; }
int main(void) {
  struct P a = {1, 2.0}, b = {3, 4.0};
  int c = 0;
  struct P m = c ? a : b;
  printf("%d %g\n", m.x, m.y);
  struct P t = (struct P){5, 6.5};
  printf("%d %g %g\n", t.x, t.y, norm((struct P){2, 0.25}));
  int *arr = (int[]){7, 8, 9};
  printf("%d %d\n", arr[1], ((struct P){9, 1.0}).x);
  struct M mm = {{{1, 2, 3}, {4, 5, 6}}};
  for (int i = 0; i < 2; i++) for (int j = 0; j < 2; j++) { mm.grid[i][j].x = i * 10 + j; mm.grid[i][j].y = mm.m[i][j + 1]; }
  double *row = mm.m[1];
  printf("%g %g %d %g %g\n", mm.m[1][2], row[0], mm.grid[1][1].x, mm.grid[1][0].y, (&mm.grid[0][0] + 3)->y);
  printf("%d\n", (a = b).x);
  return 0;
}
