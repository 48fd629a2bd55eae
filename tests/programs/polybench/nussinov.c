/* large: -DN=1800 */
/*
 * nussinov.c -- Nussinov dynamic programme for RNA secondary structure
 *
 * seq[i] in {0,1,2,3} stands for a base; bases a and b can pair when
 * a + b == 3.  table[i][j] is the maximum number of nested pairs in the
 * subsequence i..j (neighbouring bases never pair).  The upper triangle
 * is filled bottom-up; everything is int.  Arrays are file-scope globals.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 40
#endif

static int seq[N];
static int table[N][N];

static void init_arrays(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    seq[i] = (i * 7 + i / 3 + 1) % 4;
    for (j = 0; j < N; j++)
      table[i][j] = 0;
  }
}

static void kernel_nussinov(int n, int s[n], int T[n][n])
{
  int i, j, k, best, cand;

#pragma scop
  for (i = n - 1; i >= 0; i--)
    for (j = i + 1; j < n; j++) {
      best = T[i][j - 1];
      if (T[i + 1][j] > best)
        best = T[i + 1][j];
      if (j - i > 1) {
        cand = T[i + 1][j - 1] + (s[i] + s[j] == 3 ? 1 : 0);
        if (cand > best)
          best = cand;
      }
      for (k = i + 1; k < j; k++) {
        cand = T[i][k] + T[k + 1][j];
        best = cand > best ? cand : best;
      }
      T[i][j] = best;
    }
#pragma endscop
}

int main(void)
{
  int i, j;
  int count = 0;
  long total = 0;

  init_arrays();
  kernel_nussinov(N, seq, table);

  for (i = 0; i < N; i++)
    for (j = i; j < N; j++) {
      fprintf(stderr, "%d ", table[i][j]);
      count++;
      if (count % 20 == 0)
        fprintf(stderr, "\n");
      total += table[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", (double)total);
  return 0;
}
