/* Non-AD C: modf/modff (lowered in place by pgcc) on finite, signed-zero, infinite and NaN values, and sizeof of
   local variable-length arrays; output compared with gcc's. */
#include <math.h>
#include <stdio.h>

static double table_sum(int n, int m) {
  double a[n];
  double b[n][m];
  for (int i = 0; i < n; i++) {
    a[i] = i * 0.5;
    for (int j = 0; j < m; j++) b[i][j] = a[i] + j;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i][m - 1] * a[n - 1 - i];
  printf("sizes %zu %zu %zu\n", sizeof a, sizeof b, sizeof(a) / sizeof a[0]);
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
  return 0;
}
