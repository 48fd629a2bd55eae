// C++ references in host code: out-parameters of every kind, const references to values, reference locals,
// functions returning references, references passed on to other calls. Compiled by pgcc and by g++.
#include <cstdio>
#include <cstdlib>

struct Stats { int count; double sum; double max; };

static void add_sample(Stats &s, const double &x) {
  s.count += 1;
  s.sum += x;
  if (x > s.max) s.max = x;
}

static void add_all(Stats &s, const double *v, int n) {
  for (int i = 0; i < n; i++) add_sample(s, v[i]);  // a reference passed on
}

static void minmax(const double *v, int n, double &lo, double &hi, int &where) {
  lo = v[0]; hi = v[0]; where = 0;
  for (int i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) { hi = v[i]; where = i; }
  }
}

static void allocate(int n, float *&buf, int &len) {  // pointer by reference (Rodinia's out-parameters)
  buf = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) buf[i] = 0.25f * i;
  len = n;
}

static void scale_rows(double (&m)[3][4], double f) {  // an array by reference stays an indexed array
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) m[i][j] = m[i][j] * f + i;
}

static double &cell(double *grid, int cols, int i, int j) { return grid[i * cols + j]; }
static Stats &pick(Stats &a, Stats &b, bool first) { return first ? a : b; }
static int &counter() { static int c = 0; return c; }

static void swap_ints(int &a, int &b) { int t = a; a = b; b = t; }
static double mean(const Stats &s) { return s.count ? s.sum / s.count : 0.0; }

int main() {
  double v[6] = {3.5, -1.0, 8.25, 2.0, 8.0, 0.5};
  Stats st = {0, 0.0, -1e30};
  add_all(st, v, 6);
  add_sample(st, 1 + 2);  // a const reference bound to a temporary
  double lo, hi; int where;
  minmax(v, 6, lo, hi, where);
  printf("stats %d %.3f %.3f mean %.4f\n", st.count, st.sum, st.max, mean(st));
  printf("minmax %.2f %.2f %d\n", lo, hi, where);

  float *buf = nullptr; int len = 0;
  allocate(5, buf, len);
  float total = 0;
  for (int i = 0; i < len; i++) total += buf[i];
  printf("alloc %d %.3f\n", len, total);
  free(buf);

  double m[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) m[i][j] = i * 4 + j;
  scale_rows(m, 0.5);
  printf("rows %.2f %.2f %.2f\n", m[0][1], m[1][3], m[2][2]);

  double grid[12] = {0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) cell(grid, 4, i, j) = i - j;
  cell(grid, 4, 2, 1) += 10;
  double &corner = cell(grid, 4, 2, 3);
  corner *= 3;
  printf("grid %.1f %.1f %.1f\n", grid[9], grid[11], grid[4]);

  Stats other = {1, 2.0, 2.0};
  pick(st, other, false).count = 42;
  pick(st, other, true).sum = 0.5;
  printf("pick %d %.2f\n", other.count, st.sum);

  int a = 1, b = 2;
  swap_ints(a, b);
  int &r = a;
  r += 5;
  const int &cr = b;
  b = 9;
  for (int k = 0; k < 3; k++) counter()++;
  int x = 7;
  int &rx = x;
  int *px = &rx;
  *px = 8;
  printf("ints %d %d %d %d %d\n", a, b, cr, counter(), x);
  return 0;
}
