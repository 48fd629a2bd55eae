/* Pointers indexed backwards inside their objects: constant and variable negative subscripts, pointer-relative
   arithmetic, backward walks, rows of a 2-D array reached from a later row, and affine loops over a window
   centred on a pointer. Every access stays inside its array, as C requires. */
#include <stdio.h>
#include <string.h>

static int last_two(const int *end) { return end[-1] * 10 + end[-2]; }
static unsigned char before(const unsigned char *p) { return p[-3]; }
static double at(const double *p, int k) { return p[k]; }
static double window(const double *mid, int r) {
  double s = 0;
  for (int i = -r; i <= r; i++) s += mid[i] * (i + r + 1);
  return s;
}
static void smooth(double *out, const double *in, int n) {
  for (int i = 1; i < n - 1; i++) out[i] = (in[i - 1] + 2 * in[i] + in[i + 1]) / 4;
}
static void shift_down(float *p, int n) { /* p[i-1] = p[i] over the rows above p */
  for (int i = 0; i > -n; i--) p[i - 1] = p[i] + 1;
}
static double row_above(double (*row)[4], int j) { return row[-1][j] + row[-2][3 - j]; }
static long backwards(const long *s, const long *e) {
  long acc = 0;
  while (e > s) acc = acc * 3 + *--e;
  return acc;
}
static void reverse(char *s) {
  char *e = s + strlen(s);
  while (s < --e) { char t = *s; *s++ = *e; *e = t; }
}

int main(void) {
  int a[6] = {1, 2, 3, 4, 5, 6};
  unsigned char b[5] = {200, 201, 202, 203, 204};
  double d[9], o[9] = {0};
  float f[8];
  double m[4][4];
  long l[5] = {5, -4, 3, -2, 1};
  char s[] = "negative";
  for (int i = 0; i < 9; i++) d[i] = i * 0.5 + 1;
  for (int i = 0; i < 8; i++) f[i] = i;
  for (int i = 0; i < 16; i++) m[i / 4][i % 4] = i * 1.25;
  int k = -2;
  double *q = d + 6;
  smooth(o, d, 9);
  shift_down(f + 7, 5);
  reverse(s);
  printf("%d %d %d\n", last_two(a + 6), last_two(a + 2), before(b + 4));
  printf("%g %g %g %g\n", at(q, k), at(q, -6), q[k - 1], *(q - 5));
  printf("%g %g\n", window(d + 4, 4), window(q, 2));
  for (int i = 0; i < 9; i++) printf("%g ", o[i]);
  printf("\n");
  for (int i = 0; i < 8; i++) printf("%g ", f[i]);
  printf("\n%g %g %ld %s\n", row_above(m + 3, 1), row_above(m + 2, 3), backwards(l, l + 5), s);
  return 0;
}
