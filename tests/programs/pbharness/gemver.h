/* gemver.h -- data-set sizes and data type of gemver.c (original test code). */
#ifndef GEMVER_H
#define GEMVER_H

#include "bench.h"

#if !defined(N)
# ifdef MINI_DATASET
#  define N 36
# endif
# ifdef SMALL_DATASET
#  define N 110
# endif
# ifdef MEDIUM_DATASET
#  define N 380
# endif
# ifdef LARGE_DATASET
#  define N 1900
# endif
# ifdef EXTRALARGE_DATASET
#  define N 3800
# endif
#endif

#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
