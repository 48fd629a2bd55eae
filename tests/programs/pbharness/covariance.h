/* covariance.h -- data-set sizes and data type of covariance.c (original test code). */
#ifndef COVARIANCE_H
#define COVARIANCE_H

#include "bench.h"

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 26
#  define N 30
# endif
# ifdef SMALL_DATASET
#  define M 78
#  define N 96
# endif
# ifdef MEDIUM_DATASET
#  define M 230
#  define N 260
# endif
# ifdef LARGE_DATASET
#  define M 1180
#  define N 1380
# endif
# ifdef EXTRALARGE_DATASET
#  define M 2580
#  define N 2980
# endif
#endif

#define _PB_M BENCH_LOOP_BOUND(M, m)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
