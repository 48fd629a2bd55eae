/* Evaluation rules that old C code leans on: a compound assignment reads its left operand after the right one
   ran (`flags[0] |= note()` where note() sets a bit too, as gcc and clang compile it); a parameter's array bound
   with a side effect runs on entry (`int b[n++]`); a block's variable-length array is freed at the block's end
   also when a goto jumps back before the block or before the declaration itself (else a million passes
   overflow the stack). */
#include <stdio.h>

static unsigned flags[1] = {2};
static long total;

static unsigned note(void) {
  flags[0] |= 128;
  return 1;
}

static int bounds(int n, int rows[n++], int m, double cols[m += 2]) {
  return n * 100 + m;
}

static void *volatile last;

static long churn(int passes) {
  int n = 0;
again:
  {
    int scratch[n % 700 + 1];
    scratch[0] = n;
    scratch[n % 700] = 2 * n;
    last = scratch;
    total += scratch[n % 700] - scratch[0];
    n++;
  }
  if (n < passes)
    goto again;
  return total;
}

static long churn_flat(int passes) {
  int n = 0;
  long sum = 0;
again:;
  int row[n % 500 + 2];   /* declared after the label: freed each time the goto jumps back before it */
  row[0] = n;
  row[n % 500 + 1] = 3 * n;
  last = row;
  sum += row[n % 500 + 1] - row[0];
  n++;
  if (n < passes)
    goto again;
  return sum;
}

int main(void) {
  int rows[4];
  double cols[8];
  flags[0] |= note();
  printf("%u %d\n", flags[0], bounds(3, rows, 5, cols));
  printf("%ld\n", churn(1000000));
  printf("%ld\n", churn_flat(1000000));
  return 0;
}
