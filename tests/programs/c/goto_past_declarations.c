/* A goto to a label after declarations without initializers in its block (an option parser resuming inside
   its short-options block): the variables exist there, as C says. */
#include <stdio.h>
#include <string.h>
static int scan(const char *args[], int n, int resume) {
  int count = 0, k = 0;
  const char *a = args[0];
  if (resume) goto next_char;
  for (k = 0; k < n; k++) {
    a = args[k];
    if (a[0] == '-' && a[1]) {
      unsigned char c;
      const char *s;
    next_char:
      c = (unsigned char)*++a;
      s = strchr("abc", c);
      if (s) count += (int)(s - "abc") + 1;
      if (a[1]) goto next_char;
    }
  }
  return count;
}
int main(void) { const char *args[] = {"-abc", "x", "-cb"}; printf("%d %d\n", scan(args, 3, 0), scan(args, 3, 1)); return 0; }
