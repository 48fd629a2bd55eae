/* __attribute__((cleanup(f))): f(&var) when the block ends by its end, return, continue, break or goto, last
   declared first, only for declarations that ran. */
#include <stdio.h>
#include <stdlib.h>
static int log_[32], nlog;
static void note(int *p) { log_[nlog++] = *p; }
static void note$twice(int *p) { log_[nlog++] = 2 * *p; }   /* `$` in a cleanup's name, as gcc accepts */
static void release(char **p) { log_[nlog++] = (*p)[0]; free(*p); }
static int f(int k) {
    int a __attribute__((cleanup(note))) = 1;
    int z __attribute__((__cleanup__(note$twice))) = 1000 + k;
    for (int i = 0; i < 3; i++) {
        int b __attribute__((cleanup(note))) = 10 + i;
        if (i == k) return 100 + i;
        if (i == 1) continue;
        {
            char *buf __attribute__((cleanup(release))) = malloc(4);
            buf[0] = 'A' + i;
            if (k == 7) break;
        }
    }
    if (k < 0) goto out;
    a = 2;
out:
    return a;
}
/* a loop variable with a cleanup: cleaned up once, when the loop ends (by its test or by break) */
static void show_last(int *v) { printf("loop ended at %d\n", *v); }

static void scan_loops(void) {
    for (__attribute__((cleanup(show_last))) int i = 0; i < 6; ++i)
        if (i % 2)
            continue;
    for (__attribute__((cleanup(show_last))) int i = 0; i < 6; ++i)
        if (i == 3)
            break;
}

int main(void) {
    scan_loops();
    int r1 = f(1), r2 = f(7), r3 = f(-1), r4 = f(9);
    printf("%d %d %d %d |", r1, r2, r3, r4);
    for (int i = 0; i < nlog; i++) printf(" %d", log_[i]);
    printf("\n");
    return 0;
}
