/* Legacy C that gcc 12 accepts: implicit function declarations (read/lseek/write/close used without
   <unistd.h>, a function of this file called before it is declared), implicit int, K&R definitions, and calls
   through declarations without a prototype (`int f();`), whose arguments get the default promotions. */
#include <stdio.h>
#include <fcntl.h>
#include <string.h>

int kr_add(a, b) int a; int b; { return a + b; }
long kr_mix(n, s, d, c) long n; char *s; double d; char c; { return n + (long)strlen(s) + (long)(d * 4) + c; }
short kr_short(x) short x; { return x * 2; }
static count = 5;                         /* implicit int */
twice(v) { return 2 * v; }                /* implicit int result and parameter */

int noproto();
double halve();
long lsum();
void show();

int main(void) {
  const char *path = "/tmp/pgcc_legacy_c_test.txt";
  int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
  int w = write(fd, "hello world", 11);
  int off = lseek(fd, 6, 0);
  char buf[16] = {0};
  int r = read(fd, buf, 5);
  close(fd);
  unlink(path);
  printf("io %d %d %d %s\n", w, off, r, buf);
  printf("kr %d %ld %d\n", kr_add(3, 4), kr_mix(10L, "abc", 1.25, 'A'), kr_short(-21));
  char ch = 7; float f = 2.5f; short sh = -3;
  printf("noproto %d %.3f %ld\n", noproto(ch, sh), halve(f), lsum(1L, 2L, 3L));
  printf("implicit int %d %d, later %d\n", count, twice(count), later(6, 7));
  show("done", 3);
  return 0;
}

int noproto(int a, int b) { return a * 100 + b; }
double halve(double x) { return x / 2; }
long lsum(long a, long b, long c) { return a + b + c; }
void show(const char *s, int n) { printf("%s %d\n", s, n); }
int later(int a, int b) { return a * b; }
