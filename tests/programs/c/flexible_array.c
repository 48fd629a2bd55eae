#include <stdio.h>
#include <stdlib.h>
struct V { int n; double d[]; };
static double total(const double *p, int n) { double s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int main(void) {
  int n = 10;
  struct V *v = malloc(sizeof *v + n * sizeof(double));
  v->n = n;
  for (int i = 0; i < v->n; i++) v->d[i] = i * 0.5;
  double *p = v->d;
  p[3] += 100;
  printf("%zu %g %g\n", sizeof(struct V), total(v->d, v->n), v->d[3]);
  free(v);
  return 0;
}
