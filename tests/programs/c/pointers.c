#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* pointers to pointers, address-of locals/globals/elements/fields, arithmetic, comparison, difference,
   casts between pointer types, NULL, pointers stored in memory */
int g = 5;
int garr[6] = {1, 2, 3, 4, 5, 6};
double gd[4] = {0.5, 1.5, 2.5, 3.5};
int *gp;
struct S { int a; int b[3]; struct S *self; };

void set(int **pp, int *target) { *pp = target; }
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int count(char **words) { int n = 0; while (*words++) n++; return n; }
long span(const int *lo, const int *hi) { return hi - lo; }
void fill(double *p, int n) { for (double *q = p; q < p + n; q++) *q = (q - p) * 2.0; }

int main(int argc, char **argv) {
  int x = 1, y = 2;
  int *px = &x, **ppx = &px, ***pppx = &ppx;
  ***pppx = 10;
  printf("%d %d\n", x, **ppx);
  set(&px, &y);
  *px += 5;
  printf("%d %d %d\n", x, y, *px);
  swap(&x, &y);
  printf("%d %d\n", x, y);
  gp = &g;
  *gp = 9;
  printf("%d %d\n", g, gp == &g);
  int *e = &garr[2];
  printf("%d %d %d %ld\n", *e, e[1], *(e - 2), (long)(e - garr));
  printf("%d %d %d\n", e > garr, e <= &garr[1], &garr[5] - e);
  printf("%ld %ld\n", span(garr, garr + 4), span(&garr[4], &garr[1]));
  struct S s = {1, {2, 3, 4}, 0};
  s.self = &s;
  int *pa = &s.a, *pb = &s.b[1];
  *pb = 30;
  s.self->self->b[2] = 40;
  printf("%d %d %d %d %d\n", *pa, s.b[0], s.b[1], s.b[2], s.self == &s);
  char *words[] = {"alpha", "beta", "gamma", NULL};
  printf("%d %s %c\n", count(words), words[1], *(words[2] + 1));
  char **wp = words;
  wp++;
  printf("%s %s\n", *wp, wp[1]);
  unsigned char *bytes = (unsigned char *)&g;
  printf("%d %d\n", bytes[0], bytes[1]);
  void *vp = gd;
  double *dp = (double *)vp + 1;
  printf("%g %g\n", *dp, dp[2]);
  char *cp = (char *)gd;
  double *dq = (double *)(cp + 16);
  printf("%g\n", *dq);
  int *null = NULL;
  printf("%d %d\n", null == NULL, !null);
  int *heap = malloc(8 * sizeof(int));
  for (int i = 0; i < 8; i++) heap[i] = i * i;
  int **rows = malloc(2 * sizeof(int *));
  rows[0] = heap; rows[1] = heap + 4;
  printf("%d %d %d\n", rows[1][1], rows[0][3], *(*(rows + 1) + 2));
  int *slots[3] = {&x, &y, &g};
  for (int i = 0; i < 3; i++) *slots[i] += 100;
  printf("%d %d %d\n", x, y, g);
  double buf[5];
  fill(buf, 5);
  printf("%g %g\n", buf[1], buf[4]);
  char name[16];
  char *end = name;
  for (const char *c = "abc"; *c; c++) *end++ = *c - 32;
  *end = 0;
  printf("%s %ld %d\n", name, (long)(end - name), argc);
  free(rows); free(heap);
  return 0;
}
