/* gotos from outside a loop into its body: while, for (its initialization skipped, not the variables'
   values), do-while entered from a switch (Duff's device with gotos), nested loops. */
#include <stdio.h>
static int f(int i) {
    if (i) goto in;
    while (i < 3) {
        i += 10;
      in:
        i++;
    }
    return i;
}
static int g(int n, int start_mid) {
    int s = 0, k = 5;
    if (start_mid) goto mid;
    for (k = 0; k < n; k++) {
        s += 100;
      mid:
        s += k + 1;
    }
    return s;
}
static int h(int x) {
    int t = 0;
    if (x > 5) goto body;
    do {
        t += 1000;
      body:
        t += x;
        x--;
    } while (x > 0);
    return t;
}
static int duff(char *to, const char *from, int count) {
    int n = (count + 3) / 4, c = 0;
    switch (count % 4) {
    case 0: goto c0;
    case 3: goto c3;
    case 2: goto c2;
    default: goto c1;
    }
    do {
      c0: *to++ = *from++; c++;
      c3: *to++ = *from++; c++;
      c2: *to++ = *from++; c++;
      c1: *to++ = *from++; c++;
    } while (--n > 0);
    return c;
}
static int nested(int a) {
    int r = 0, i = 1, j = 1;
    if (a) goto deep;
    for (i = 0; i < 2; i++) {
        for (j = 0; j < 3; j++) {
            r += 10;
          deep:
            r += 1;
        }
    }
    return r;
}
int main(void) {
    char dst[16] = {0};
    printf("%d %d %d %d\n", f(0), f(1), f(7), f(-5));
    printf("%d %d %d\n", g(3, 0), g(3, 1), g(0, 1));
    printf("%d %d %d\n", h(3), h(7), h(6));
    printf("%d %s\n", duff(dst, "abcdefghij", 10), dst);
    printf("%d %d\n", nested(0), nested(1));
    return 0;
}
