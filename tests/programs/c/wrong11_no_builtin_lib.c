/* The program's own abs and fabs for wrong11_no_builtin_main.c: each call is counted. */
int abs_calls, fabs_calls;

int abs(int x) {
  abs_calls++;
  return x < 0 ? -x : x;
}

long labs(long x) { return x < 0 ? -x : x; }

double fabs(double x) {
  fabs_calls++;
  return x < 0 ? -x : x;
}
