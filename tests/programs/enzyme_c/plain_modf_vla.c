/* Non-AD C: modf/modff (lowered in place by pgcc) on finite, signed-zero, infinite and NaN values, and sizeof of
   local variable-length arrays; output compared with gcc's. */
#include <math.h>
#include <stdio.h>

#include <stdlib.h>

typedef struct { double x; int k; } rec;

/* rows of a matrix through a pointer to VLA rows: sizeof *a, sizeof a[i], allocation by sizeof *p */
static size_t row_bytes(int n, int m, double (*a)[m]) { return sizeof *a + sizeof a[n - 1] * 10; }
static double heap_rows(int n, int m) {
  double (*p)[m] = malloc(n * sizeof *p);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) p[i][j] = i + 0.5 * j;
  printf("rows %zu %zu %zu\n", sizeof *p, sizeof p[n - 1], row_bytes(n, m, p));
  double s = p[n - 1][m - 1];
  free(p);
  return s;
}

/* VLAs of pointers and of structs (also one declared in a loop) */
static double pointer_tables(int n, int m) {
  double a[n];
  double *ptrs[n];
  rec recs[m];
  rec grid[m][3];
  printf("sizes %zu %zu %zu %zu\n", sizeof a, sizeof ptrs, sizeof recs, sizeof grid);
  for (int i = 0; i < n; i++) { a[i] = i * 0.5; ptrs[i] = &a[n - 1 - i]; }
  for (int i = 0; i < m; i++) {
    recs[i].x = *ptrs[i] + 1;
    recs[i].k = i;
    for (int j = 0; j < 3; j++) { grid[i][j].x = i * j; grid[i][j].k = j; }
  }
  double s = 0;
  for (int i = 0; i < m; i++) s += recs[i].x * recs[i].k + grid[i][2].x * grid[m - 1 - i][1].k;
  for (int r = 0; r < 3; r++) {
    double *q[r + 2];
    for (int i = 0; i < r + 2; i++) q[i] = &a[i];
    s += *q[r + 1] * sizeof q;
  }
  return s;
}

static double table_sum(int n, int m) {
  double a[n];
  double b[n][m];
  for (int i = 0; i < n; i++) {
    a[i] = i * 0.5;
    for (int j = 0; j < m; j++) b[i][j] = a[i] + j;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i][m - 1] * a[n - 1 - i];
  float c[n][m][3];
  int i = 1;
  printf("sizes %zu %zu %zu %zu %zu %zu %zu\n", sizeof a, sizeof b, sizeof(a) / sizeof a[0], sizeof b[0],
         sizeof(b[i]), sizeof c[1], sizeof c[1][2]);
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  double vals[] = {3.75, -0.5, -2.0, INFINITY, -INFINITY, NAN, 0.0, -0.0, 1e300, 7.0e-310};
  for (int i = 0; i < 10; i++) {
    double ip;
    double fr = modf(vals[i], &ip);
    float ipf;
    float frf = modff((float)vals[i], &ipf);
    double ipb;
    double frb = __builtin_modf(vals[i] * 3, &ipb);
    printf("%g %g %d %d | %g %g %d | %g %g\n", fr, ip, signbit(fr) != 0, signbit(ip) != 0, frf, ipf,
           signbit(frf) != 0, frb, ipb);
  }
  printf("%g\n", table_sum(argc + 4, argc + 2));
  printf("%g\n", pointer_tables(argc + 4, argc + 2));
  printf("%g\n", heap_rows(argc + 3, argc + 5));
  return 0;
}
