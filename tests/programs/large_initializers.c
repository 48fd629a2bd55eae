#include <stdio.h>
static double gd[100][100] = {{1.5, 2.5}, {3.5}};
signed char gc[5000] = {1, -2, 200};
char huge[2147483647] = "";
int main(void) {
  int a[80][80] = {{1, 2}, {3}};
  float f[5000] = {0.5f};
  char s[10000] = "hello";
  long sum = 0;
  for (int i = 0; i < 80; i++) for (int j = 0; j < 80; j++) sum += a[i][j] * (i + 1) * (j + 3);
  double ds = 0; for (int i = 0; i < 100; i++) for (int j = 0; j < 100; j++) ds += gd[i][j] * (i + 2 * j);
  int cs = 0; for (int i = 0; i < 5000; i++) cs += gc[i] * (i % 7 + 1);
  float fs = 0; for (int i = 0; i < 5000; i++) fs += f[i];
  int ss = 0; for (int i = 0; i < 10000; i++) ss += s[i];
  printf("%ld %.3f %d %.3f %d %s %d\n", sum, ds, cs, fs, ss, s, huge[5]);
  return 0;
}
