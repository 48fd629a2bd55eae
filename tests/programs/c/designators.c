#include <stdio.h>
struct In { int a; int b[3]; };
struct P { int k; struct In in; struct In arr[2]; double z; };
struct P gp = {.in.a = 1, 5, 6, .arr[1].b[2] = 7, .k = 3, .arr[0] = {8, {9}}, 2.5};
int gq[6] = {0, 1, 0, 4, 5};
int main(void) {
  struct P p = {.in.a = 1, 5, 6, .arr[1].b[2] = 7, .k = 3, .arr[0] = {8, {9}}, 2.5};
  int q[6] = {[3] = 4, 5, [1] = 1};
  struct P *ps[2] = {&gp, &p};
  for (int t = 0; t < 2; t++) {
    struct P *x = ps[t];
    printf("%d %d %d %d %d | %d %d %d %d | %d %d %d %d | %g\n", x->k, x->in.a, x->in.b[0], x->in.b[1], x->in.b[2],
           x->arr[0].a, x->arr[0].b[0], x->arr[0].b[1], x->arr[0].b[2], x->arr[1].a, x->arr[1].b[0], x->arr[1].b[1], x->arr[1].b[2], x->z);
  }
  for (int i = 0; i < 6; i++) printf("%d %d ", q[i], gq[i]);
  printf("\n");
  return 0;
}
