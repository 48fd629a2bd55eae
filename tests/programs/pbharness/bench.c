/*
 * bench.c -- run-time half of the harness in bench.h: aligned allocation,
 * cache flushing and a wall-clock timer.  Compiled as its own translation
 * unit and linked with each kernel, the way benchmark suites ship their
 * utilities.  Original code written for pgcc's tests.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <assert.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sched.h>
#include <math.h>
#ifdef _OPENMP
# include <omp.h>
#endif

#include "bench.h"

/* Size of the buffer streamed through the caches before a timed run (KiB). */
#ifndef BENCH_CACHE_SIZE_KB
# define BENCH_CACHE_SIZE_KB 8192
#endif

/* Alignment of every array handed out by bench_alloc_data. */
#ifndef BENCH_ALIGNMENT
# define BENCH_ALIGNMENT 4096
#endif

/* Extra bytes appended to each successive allocation (0: none). */
#ifndef BENCH_INTER_ARRAY_PADDING
# define BENCH_INTER_ARRAY_PADDING 0
#endif

double bench_total_flops = 0;
int bench_monitored_thread = 0;

/* Wall-clock timer state. */
double bench_t_start, bench_t_end;
/* Cycle-counter timer state (only with BENCH_CYCLE_TIMER). */
unsigned long long int bench_c_start, bench_c_end;

static size_t bench_padding_bytes = 0;

/* Seconds since some fixed point; a constant 0 unless real timing is asked
   for, so that untimed runs print reproducible output. */
static double rtclock()
{
#ifdef BENCH_TIME
  struct timeval now;
  int status;
  status = gettimeofday(&now, NULL);
  if (status != 0)
    printf("gettimeofday failed: %d", status);
  return now.tv_sec + now.tv_usec * 1.0e-6;
#else
  return 0;
#endif
}

#ifdef BENCH_CYCLE_TIMER
static unsigned long long int read_cycles()
{
  unsigned int lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long int)hi << 32) | lo;
}
#endif

/* Stream a zeroed buffer larger than the last-level cache through the
   caches; the sum is checked so the loop cannot be removed. */
void bench_flush_cache()
{
  int count = BENCH_CACHE_SIZE_KB * 1024 / sizeof(double);
  double *buffer = (double *)calloc(count, sizeof(double));
  int i;
  double acc = 0.0;
#ifdef _OPENMP
#pragma omp parallel for reduction(+ : acc) private(i)
#endif
  for (i = 0; i < count; i++)
    acc += buffer[i];
  assert(acc <= 10.0);
  free(buffer);
}

void bench_prepare_instruments()
{
#ifndef BENCH_NO_FLUSH_CACHE
  bench_flush_cache();
#endif
}

void bench_timer_start()
{
  bench_prepare_instruments();
#ifndef BENCH_CYCLE_TIMER
  bench_t_start = rtclock();
#else
  bench_c_start = read_cycles();
#endif
}

void bench_timer_stop()
{
#ifndef BENCH_CYCLE_TIMER
  bench_t_end = rtclock();
#else
  bench_c_end = read_cycles();
#endif
}

void bench_timer_print()
{
#ifndef BENCH_CYCLE_TIMER
  printf("%0.6f\n", bench_t_end - bench_t_start);
#else
  printf("%llu\n", bench_c_end - bench_c_start);
#endif
}

/* posix_memalign or die. */
static void *aligned_or_die(size_t bytes)
{
  void *block = NULL;
  bench_padding_bytes += BENCH_INTER_ARRAY_PADDING;
  size_t total = bytes + bench_padding_bytes;
  int failed = posix_memalign(&block, BENCH_ALIGNMENT, total);
  if (!block || failed)
    {
      fprintf(stderr, "[bench] cannot allocate %lu bytes\n", (unsigned long)total);
      exit(1);
    }
  return block;
}

void *bench_alloc_data(unsigned long long int n, int elt_size)
{
  size_t bytes = n;
  bytes *= elt_size;
  void *block = aligned_or_die(bytes);
  return block;
}

void bench_free_data(void *ptr)
{
  free(ptr);
}
