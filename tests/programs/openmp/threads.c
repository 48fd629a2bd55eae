/* The OpenMP runtime functions from a -fopenmp program: prints facts that hold at any OMP_NUM_THREADS. */
#include <stdio.h>
#include <omp.h>

#define N 400

int main(void) {
  int tid[N], team[N];
  double t0 = omp_get_wtime();
  int max = omp_get_max_threads();
  #pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    tid[i] = omp_get_thread_num();
    team[i] = omp_get_num_threads();
  }
  int used[64] = {0}, distinct = 0, same_team = 1, in_range = 1;
  for (int i = 0; i < N; i++) {
    same_team &= team[i] == max;
    in_range &= tid[i] >= 0 && tid[i] < max && tid[i] < 64;
    if (in_range && !used[tid[i]]) { used[tid[i]] = 1; distinct++; }
  }
  printf("max_threads=%d outside=%d same_team=%d in_range=%d distinct=%d clock=%d\n", max,
         omp_get_num_threads(), same_team, in_range, distinct, omp_get_wtime() >= t0);
  return 0;
}
