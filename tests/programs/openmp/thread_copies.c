/* Loops whose private, firstprivate and reduction variables carry values from one iteration of a thread to
   the next, and flags that many iterations set, as stencil, graph and neural-network codes write them:
   - a boundary update whose correction is assigned in an if / else-if chain with no final else;
   - a firstprivate running total (each thread continues from the value before the loop);
   - a reduction variable reset by every iteration (each thread's last value is what gets combined);
   - reduction variables read after their update (a thread's running sum and maximum);
   - breadth-first search levels: a `bool` and an `int` flag set by any iteration that finds work;
   - clauses that a macro spells. */
#include <stdbool.h>
#include <stdio.h>

#define N 96
#define B 8

static float in[N], out[N];
static double run[N];
static float w[40][9], act[9];
static int adj[N][3], level[N];
static bool frontier[N], next[N];

static void boundary_update(void) {
  float d = 0.0f;
  int i;
#pragma omp parallel for private(i, d) schedule(static)
  for (int b = 0; b < N / B; b++) {
    for (i = b * B; i < b * B + B; i++) {
      if (i == 0)
        d = in[1] - in[0];
      else if (i == N - 1)
        d = in[N - 2] - in[N - 1];
      else if (i > 0)
        d = in[i - 1] + in[i + 1] - 2 * in[i];
      out[i] = in[i] + 0.25f * d;
    }
  }
}

/* clauses written through a macro, which the preprocessor expands on `#pragma omp` lines */
#define CARRY_CLAUSES firstprivate(t) schedule(static)

static void running_totals(void) {
  double t = 1.0;
#pragma omp parallel for CARRY_CLAUSES
  for (int i = 0; i < N; i++) {
    t = t + in[i];
    run[i] = t;
  }
}

static float layer_forward(void) {
  float sum = 2.0f;
  int j, k;
#pragma omp parallel for private(k, j) reduction(+ : sum) schedule(static)
  for (j = 1; j <= 8; j++) {
    sum = 0.0f;
    for (k = 0; k < 40; k++)
      sum += w[k][j];
    act[j] = sum;
  }
  return sum;
}

static double prefix[N];
static int seen[N];

static double partial_reads(int *top) {
  double s = 0.5;
  int mx = -1;
#pragma omp parallel for reduction(+ : s) reduction(max : mx)
  for (int i = 0; i < N; i++) {
    s += in[i];
    prefix[i] = s;
    if ((int)in[i] > mx)
      mx = (int)in[i];
    seen[i] = mx;
  }
  *top = mx;
  return s;
}

/* the clause names the outer i and j; the loop declares its own (a lastprivate makes it an omp.wsloop) */
static float grid[16][16];

static float inner_names(void) {
  int i, j, k;
  float last = 0.0f, d = 0.0f;
#pragma omp parallel for private(i, j, k, d) lastprivate(last)
  for (int i = 0; i < 16; i++) {
    for (int j = 0; j < 16; j++) {
      k = i * 16 + j;
      if (j > 0)
        d = grid[i][j - 1];
      grid[i][j] += (j > 0 ? d : 0.0f) + (float)(k % 3);
    }
    last = grid[i][15];
  }
  return last + grid[3][7];
}

static int bfs_levels(void) {
  bool more;
  int rounds = 0, touched = 0;
  do {
    more = false;
#pragma omp parallel for
    for (int v = 0; v < N; v++) {
      if (frontier[v]) {
        frontier[v] = false;
        for (int e = 0; e < 3; e++)
          if (level[adj[v][e]] < 0)
            next[adj[v][e]] = true;
      }
    }
#pragma omp parallel for
    for (int v = 0; v < N; v++) {
      if (next[v]) {
        next[v] = false;
        frontier[v] = true;
        level[v] = rounds + 1;
        more = true;
        touched = 1;
      }
    }
    rounds++;
  } while (more);
  return rounds * 10 + touched;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    in[i] = (float)((i * 37) % 11) * 0.5f;
    level[i] = -1;
    for (int e = 0; e < 3; e++)
      adj[i][e] = (i * (e + 2) + e * 7 + 1) % N;
  }
  for (int k = 0; k < 40; k++)
    for (int j = 0; j < 9; j++)
      w[k][j] = (float)((k * 7 + j * 3) % 10) * 0.125f;
  level[0] = 0;
  frontier[0] = true;

  boundary_update();
  running_totals();
  float last = layer_forward();
  int top;
  double total = partial_reads(&top);
  int bfs = bfs_levels();
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      grid[i][j] = (float)(i + j) * 0.5f;
  float names = inner_names();

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += out[i] * (i + 1) + run[i] * (i % 5) + level[i] + prefix[i] * (i % 3) + seen[i];
  printf("stencil+totals+levels %.4f\n", s);
  for (int j = 1; j <= 8; j++)
    printf("%.3f ", act[j]);
  printf("\nreduction of the last values %.3f\n", last);
  printf("bfs %d\nsum %.3f max %d\ninner names %.3f\n", bfs, total, top, names);
  return 0;
}
