/* A tree reduction split into sections (a parallel sections construct whose sections call functions with
   orphaned worksharing loops and nested sections), lastprivate and min/max reductions, private structs,
   a private local passed by address to a helper, and the runtime's thread-count functions. */
#include <stdio.h>
#include <omp.h>

#define N 4096

typedef struct { double lo, hi; int count; } range;

static double data[N];
static double partial[4];

/* an orphaned worksharing loop: shared by the team of the region that calls it, sequential otherwise; each
   thread's partial sum is added to the caller's shared total */
static double sum_range(int lo, int hi, double *total) {
  double mine = 0.0;
#pragma omp for
  for (int i = lo; i < hi; i++) mine += data[i];
#pragma omp atomic
  *total += mine;
#pragma omp barrier
  return *total;
}

/* an orphaned loop with a reduction on a static variable, called outside any parallel region */
static double sum_static(int lo, int hi) {
  static double acc;
  acc = 0.0;
#pragma omp for reduction(+ : acc)
  for (int i = lo; i < hi; i++) acc += data[i];
  return acc;
}

static void scale(double *x, double s) { *x = *x * s; }

static void leaves(int lo, int hi, double *out) {
#pragma omp parallel sections
  {
#pragma omp section
    {
      double t = 0.0;
      out[0] = sum_range(lo, (lo + hi) / 2, &t);
    }
#pragma omp section
    {
      double t = 0.0;
      out[1] = sum_range((lo + hi) / 2, hi, &t);
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++) data[i] = (double)((i * 37) % 101) - 50.0;
  double left[2], right[2], whole = 0.0;
#pragma omp parallel sections
  {
#pragma omp section
    leaves(0, N / 2, left);
#pragma omp section
    leaves(N / 2, N, right);
#pragma omp section
    for (int i = 0; i < N; i++) whole += data[i];
  }
  printf("tree %.1f %.1f %.1f %.1f = %.1f\n", left[0], left[1], right[0], right[1], whole);

  /* orphaned loop inside a region: the team shares its iterations */
  double team_sum = 0.0, total = 0.0;
#pragma omp parallel
  {
    double s = sum_range(0, N, &total);
#pragma omp master
    team_sum = s;
  }
  printf("team %.1f sequential %.1f\n", team_sum, sum_static(0, N));

  range r = {1e300, -1e300, 0};
  int last = -1, lo_idx = N, hi_idx = -1;
  double t = 0.0;
#pragma omp parallel for firstprivate(r) lastprivate(last) reduction(min : lo_idx) reduction(max : hi_idx) private(t)
  for (int i = 0; i < N; i++) {
    t = data[i];
    scale(&t, 2.0);
    if (t < r.lo) r.lo = t;
    r.count++;
    if (data[i] == 50.0) { lo_idx = i < lo_idx ? i : lo_idx; hi_idx = i > hi_idx ? i : hi_idx; }
    last = i * 3;
  }
  printf("last %d first50 %d last50 %d r.count %d\n", last, lo_idx, hi_idx, r.count);

  int nt = 0, masked_ran = 0, tids = 0;
  omp_set_num_threads(3);
#pragma omp parallel num_threads(2) reduction(+ : tids)
  {
    tids += omp_get_thread_num() + 1;
#pragma omp masked
    nt = omp_get_num_threads();
#pragma omp masked filter(1)
    masked_ran = 1;
  }
  int outer = 0;
#pragma omp parallel
  {
#pragma omp single
    outer = omp_get_num_threads();
  }
  printf("nt %d tids %d masked1 %d outer %d in_parallel %d\n", nt, tids, masked_ran, outer, omp_in_parallel());
  /* if and num_threads clauses with expressions */
  int teams[3], want = 4;
  double x = 0.25;
  for (int k = 0; k < 3; k++) {
#pragma omp parallel if(N * (k + 1) >= 2 * N && x < 0.5) num_threads(want / 2 + k % 2)
    {
#pragma omp single
      teams[k] = omp_get_num_threads();
    }
  }
  printf("teams %d %d %d\n", teams[0], teams[1], teams[2]);
  return 0;
}
