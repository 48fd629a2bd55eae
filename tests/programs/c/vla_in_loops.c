/* A variable-length array declared in a loop body of two million iterations: freed at the end of each one (as
   gcc does), not piled up on the stack. */
#include <stdio.h>
int main(void) {
    long total = 0;
    for (int it = 0; it < 2000000; it++) {
        int n = 64 + it % 7;
        double v[n];
        for (int i = 0; i < n; i++) v[i] = i * 0.5;
        total += (long)v[n - 1];
    }
    printf("%ld\n", total);
    return 0;
}
