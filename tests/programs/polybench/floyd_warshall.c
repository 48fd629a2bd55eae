/* large: -DN=1200 */
/*
 * floyd_warshall.c -- all-pairs shortest paths on a dense directed graph
 *
 * Integer edge weights; missing edges have weight NO_EDGE, which is large
 * but small enough that the sum of two never overflows an int.
 * The distance matrix is a file-scope global used directly by the kernel.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 36
#endif

#define NO_EDGE 100000

static int dist[N][N];

static void init_graph(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      if (i == j)
        dist[i][j] = 0;
      else if ((i + 2 * j) % 5 == 0 || (i * j) % 7 == 3)
        dist[i][j] = (i * j) % 9 + 1;
      else
        dist[i][j] = NO_EDGE;
    }
}

static void kernel_floyd_warshall(void)
{
  int i, j, k;

#pragma scop
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        dist[i][j] = dist[i][j] < dist[i][k] + dist[k][j]
                         ? dist[i][j]
                         : dist[i][k] + dist[k][j];
#pragma endscop
}

int main(void)
{
  int i, j;
  long total = 0;

  init_graph();
  kernel_floyd_warshall();

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      fprintf(stderr, "%d ", dist[i][j]);
      if ((i * N + j) % 20 == 19)
        fprintf(stderr, "\n");
      total += dist[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", (double)total);
  return 0;
}
