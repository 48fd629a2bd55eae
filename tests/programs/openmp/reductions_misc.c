/* Reductions and data-sharing clauses as benchmark kernels use them: array reductions (a local histogram,
   a global one, an array section), a global scalar reduced by a parallel loop, max/min/bitwise reductions,
   lastprivate, a private scalar passed by address, firstprivate structs, bounds read through pointers and
   loop hints between the directive and its loop. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 10000
#define B 8

typedef struct { int n; const int *v; } vec;
typedef struct { double scale, shift; } affine_t;

int keys[N];
long global_sum;
int global_hist[B];

static void accumulate(double *acc, int x) { *acc += x * 0.5; }

static int count_above(const vec *v, int threshold) {
  int c = 0;
#pragma omp parallel for reduction(+ : c)
  for (int i = 0; i < v->n; i++) c += v->v[i] > threshold;
  return c;
}

int main(void) {
  for (int i = 0; i < N; i++) keys[i] = (i * 7919 + 13) % 1009;
  int hist[B] = {0}, section[B] = {0};
  int n = N, *np = &n;
#pragma omp parallel for reduction(+ : hist, global_hist)
  for (int i = 0; i < *np; i++) { hist[keys[i] % B]++; global_hist[(keys[i] / B) % B] += 2; }
#pragma omp parallel for reduction(+ : section[:B]) reduction(+ : global_sum)
#ifdef __clang__ /* (gcc accepts no pragma between the directive and its loop; clang does) */
#pragma GCC unroll 4
#endif
  for (int i = 0; i < n; i++) { section[keys[i] % B] += keys[i]; global_sum += keys[i]; }

  int imax = -1, imin = 1 << 30, band = ~0, bor = 0, bxor = 0, last = -1, lastkey = -1;
  double dmax = -1e300, dmin = 1e300, half = 0.0, acc;
  affine_t tr = {0.5, 3.0};
#pragma omp parallel for reduction(max : imax, dmax) reduction(min : imin, dmin) \
    reduction(& : band) reduction(| : bor) reduction(^ : bxor) lastprivate(last, lastkey) private(acc) \
    firstprivate(tr) reduction(+ : half)
#ifdef __clang__
#pragma nounroll
#endif
  for (int i = 0; i < n; i += 3) {
    int k = keys[i];
    double y = tr.scale * k + tr.shift;
    imax = k > imax ? k : imax;
    imin = k < imin ? k : imin;
    dmax = y > dmax ? y : dmax;
    dmin = y < dmin ? y : dmin;
    band &= k | 1;
    bor |= k;
    bxor ^= k;
    acc = 0.0;
    accumulate(&acc, k);
    half += acc;
    last = i;
    lastkey = k;
  }
  vec v = {N, keys};
  long hw = 0, gw = 0, sw = 0;
  for (int b = 0; b < B; b++) { hw += (long)hist[b] * (b + 1); gw += (long)global_hist[b] * (b + 3); sw += section[b]; }
  printf("hist %ld global %ld section %ld sum %ld\n", hw, gw, sw, global_sum);
  printf("int max %d min %d and %d or %d xor %d\n", imax, imin, band, bor, bxor);
  printf("double max %.3f min %.3f half %.1f last %d key %d\n", dmax, dmin, half, last, lastkey);
  printf("above %d\n", count_above(&v, 500));
  /* reductions on the parallel region itself and a product reduction */
  int team = 10;
  long fact = 1;
  double tmax = -1.0;
#pragma omp parallel reduction(+ : team) reduction(max : tmax)
  {
    team += omp_get_thread_num() + 1;
    tmax = omp_get_thread_num() * 1.5;
#pragma omp for reduction(* : fact)
    for (int i = 1; i <= 15; i++) fact *= i;
  }
  printf("team %d tmax %.1f fact %ld\n", team, tmax, fact);
  /* reductions over sections of heap arrays, in a loop repeated inside a region */
  double *w = malloc(B * sizeof(double));
  long *top = calloc(B + 2, sizeof(long));
  for (int b = 0; b < B; b++) w[b] = 1.0;
#pragma omp parallel
  for (int rep = 0; rep < 3; rep++) {
#pragma omp for reduction(+ : w[:B]) reduction(max : top[2:B])
    for (int i = 0; i < n; i++) {
      w[keys[i] % B] += keys[i] * 0.5;
      if (keys[i] > top[2 + keys[i] % B]) top[2 + keys[i] % B] = keys[i];
    }
  }
  double ww = 0.0;
  long tw = 0;
  for (int b = 0; b < B; b++) { ww += w[b] * (b + 1); tw += top[b + 2] * (b + 1); }
  printf("heap sections %.1f %ld %ld\n", ww, tw, top[0] + top[1]);
  free(w);
  free(top);
  /* firstprivate and lastprivate together: each thread counts on from 5; the thread that runs the last
     iteration copies its count out (static schedule: the same chunks as gcc's) */
  int cnt = 5;
#pragma omp parallel for schedule(static) firstprivate(cnt) lastprivate(cnt)
  for (int i = 0; i < 100; i++) cnt = cnt + 1;
  printf("count %d\n", cnt);
  return 0;
}
