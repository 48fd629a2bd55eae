/* A lagged-Fibonacci generator seeded by squaring and shifting a state table, in the style of Knuth's
   ran_start: one element of the table is read three times around a write to another element, the third
   time under a condition (MLIR's affine-scalrep aborted on that pattern). */
#include <stdio.h>
#include <stdint.h>

#define LAG_LONG 100
#define LAG_SHORT 37
#define MASK 1023u

static uint32_t table[LAG_LONG];

static void seed_table(uint32_t seed)
{
  uint32_t x[2 * LAG_LONG];
  uint32_t t, j, ss = (seed + 2) & (MASK - 1);

  for (j = 0; j < LAG_LONG; j++) {
    x[j] = ss;
    ss <<= 1;
    if (ss >= MASK + 1)
      ss -= MASK - 1;
  }
  for (; j < 2 * LAG_LONG; j++)
    x[j] = 0;
  x[1]++;
  for (ss = seed & MASK, t = 69; t; ) {
    if (ss & 1) {
      for (j = LAG_LONG; j > 0; j--)
        x[j] = x[j - 1];
      x[0] = x[LAG_LONG];
      if (x[LAG_LONG] & 1)
        x[LAG_SHORT] = (x[LAG_SHORT] - x[LAG_LONG]) & MASK;
    }
    if (ss)
      ss >>= 1;
    else
      t--;
  }
  for (j = 0; j < LAG_LONG; j++)
    table[j] = x[j];
}

int main(void)
{
  uint32_t seeds[] = {0, 1, 31415, 65535, 1000003};
  for (unsigned s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    uint32_t sum = 0, mix = 0;
    seed_table(seeds[s]);
    for (int j = 0; j < LAG_LONG; j++) {
      sum += table[j];
      mix = mix * 31u + table[j];
    }
    printf("seed %u: sum %u mix %08x first %u last %u\n", seeds[s], sum, mix, table[0], table[LAG_LONG - 1]);
  }
  return 0;
}
