/* gotos from cases into a label inside another case's block (an interpreter's shared return path), and out to a label
   before the loop around the switch. */
#include <stdio.h>
static int run(const int *ops, int n) {
    int acc = 0, depth = 0, pc = 0;
  start:
    depth++;
    while (pc < n) {
        int op = ops[pc++];
        switch (op) {
        case 0: acc += 1; break;
        case 1: acc *= 2; break;
        case 2:
            if (acc > 10) goto ret;
            acc += 100;
            break;
        case 3:
            acc -= 3;
            goto ret;
        case 4: {
            if (acc % 2) {
                acc += 7;
            } else {
                acc += 9;
            }
          ret:
            if (depth < 3) { acc += 1000; goto start; }
            else return acc;
        }
        case 5:
            pc = 0;
            break;
        }
    }
    return -acc;
}
int main(void) {
    int a[] = {0, 0, 1, 4, 0, 2, 3, 0};
    int b[] = {2, 0, 1, 1, 1, 2, 4, 1, 3};
    int c[] = {0, 1, 0};
    printf("%d %d %d\n", run(a, 8), run(b, 9), run(c, 3));
    return 0;
}
