#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
binop table[3] = {add, sub, mul};
struct Ops { const char *name; binop f; };
struct Ops ops[] = {{"add", add}, {"mul", mul}};
int apply(binop f, int x, int y) { return f(x, y); }
int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
struct Rec { int key; double w; };
int cmp_rec(const void *a, const void *b) {
  const struct Rec *ra = a, *rb = b;
  return ra->key - rb->key;
}
int main(void) {
  binop f = add;
  printf("%d %d %d\n", f(3, 4), (*f)(5, 1), apply(sub, 10, 3));
  for (int i = 0; i < 3; i++) printf("%d ", table[i](6, 2));
  printf("\n");
  for (int i = 0; i < 2; i++) printf("%s=%d ", ops[i].name, ops[i].f(3, 5));
  printf("\n");
  binop local[2] = {mul, &add};
  printf("%d %d\n", local[0](7, 7), local[1](7, 7));
  int v[8] = {5, 3, 9, 1, 7, 2, 8, 0};
  qsort(v, 8, sizeof(int), cmp_int);
  for (int i = 0; i < 8; i++) printf("%d ", v[i]);
  printf("\n");
  return 0;
}
