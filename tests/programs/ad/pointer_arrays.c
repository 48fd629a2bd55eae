/* double**: an array of row pointers; the shadow is an array of shadow rows (Enzyme's convention). Hand-derived:
   d/d rows[i][0] = cos(rows[i][0]) * rows[i][1], d/d rows[i][1] = sin(rows[i][0]). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
double f(double **rows, int n) { double s = 0; for (int i = 0; i < n; i++) s += sin(rows[i][0]) * rows[i][1]; return s; }
int main() {
  double **r = (double **)malloc(2 * sizeof(double *)), **dr = (double **)malloc(2 * sizeof(double *));
  double **tr = (double **)malloc(2 * sizeof(double *));
  for (int i = 0; i < 2; i++) { r[i] = (double *)malloc(16); dr[i] = (double *)malloc(16); tr[i] = (double *)malloc(16);
    r[i][0] = 0.3 + 0.2 * i; r[i][1] = 0.4 + 0.2 * i; dr[i][0] = dr[i][1] = 0; tr[i][0] = tr[i][1] = 0; }
  tr[0][0] = 1; tr[1][1] = 1;
  __enzyme_autodiff((void *)f, r, dr, 2);
  printf("rows00 %.10g %.10g\n", dr[0][0], cos(0.3) * 0.4);
  printf("rows11 %.10g %.10g\n", dr[1][1], sin(0.5));
  printf("fwd %.10g %.10g\n", __enzyme_fwddiff((void *)f, r, tr, 2), dr[0][0] + dr[1][1]);
  return 0;
}
