/* Histograms of pseudo-random keys built by a team of threads in the ways OpenMP codes do it: per-thread
   private histograms merged in a critical section, atomic increments of a shared histogram, a work queue
   whose slots are claimed with atomic capture, and named critical sections guarding two separate totals. */
#include <stdio.h>
#include <omp.h>

#define N 20000
#define BINS 32

static unsigned keys[N];
static int shared_hist[BINS], merged_hist[BINS];
static int claimed[N];
static int next_slot;
static long total_a, total_b;

/* SPMD style: each thread takes every nth step by its thread number; thread 0 publishes the team size */
static double pi_spmd(long steps) {
  int nthreads = 0;
  double pi = 0.0, step = 1.0 / steps, sum[64];
#pragma omp parallel
  {
    int id = omp_get_thread_num(), nth = omp_get_num_threads();
    long k;
    double x;
    if (id == 0) nthreads = nth;
    for (k = id, sum[id] = 0.0; k < steps; k += nth) {
      x = (k + 0.5) * step;
      sum[id] += 4.0 / (1.0 + x * x);
    }
  }
  for (int i = 0; i < nthreads; i++) pi += sum[i] * step;
  return pi;
}

int main(void) {
  unsigned x = 12345u;
  for (int i = 0; i < N; i++) { x = x * 1103515245u + 12345u; keys[i] = (x >> 8) % 1000u; }
  int threads = 0, visits = 0, maxkey = -1;
  double mean = 0.0;
#pragma omp parallel
  {
    int mine[BINS];
    for (int b = 0; b < BINS; b++) mine[b] = 0;
#pragma omp for schedule(dynamic, 256)
    for (int i = 0; i < N; i++) {
      mine[keys[i] % BINS]++;
#pragma omp atomic
      shared_hist[keys[i] % BINS] += 1;
    }
#pragma omp critical
    {
      for (int b = 0; b < BINS; b++) merged_hist[b] += mine[b];
      threads++;
    }
    /* a work queue: each thread claims slots until none are left */
    for (;;) {
      int slot;
#pragma omp atomic capture
      slot = next_slot++;
      if (slot >= N) break;
      claimed[slot] += 1;
      if ((int)keys[slot] > 500) {
#pragma omp critical(totals_a)
        total_a += keys[slot];
      } else {
#pragma omp critical(totals_b)
        total_b += keys[slot];
      }
    }
#pragma omp barrier
#pragma omp single nowait
    {
      int m;
#pragma omp atomic read
      m = next_slot;
      visits = m;
    }
#pragma omp for reduction(max : maxkey) reduction(+ : mean)
    for (int i = 0; i < N; i++) {
      if ((int)keys[i] > maxkey) maxkey = keys[i];
      mean += keys[i] / (double)N;
    }
#pragma omp master
    {
#pragma omp atomic write
      next_slot = -1;
    }
  }
  int same = 1, once = 1;
  long sum = 0;
  for (int b = 0; b < BINS; b++) { same &= shared_hist[b] == merged_hist[b]; sum += (long)shared_hist[b] * b; }
  for (int i = 0; i < N; i++) once &= claimed[i] == 1;
  printf("same=%d once=%d weighted=%ld totals=%ld,%ld sum=%ld\n", same, once, sum, total_a, total_b,
         total_a + total_b);
  printf("threads_ok=%d visits_ok=%d maxkey=%d mean=%.6f next=%d\n", threads == omp_get_max_threads(),
         visits >= N, maxkey, mean, next_slot);
  printf("pi %.12f\n", pi_spmd(200000));
  return 0;
}
