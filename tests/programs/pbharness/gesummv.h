/* gesummv.h -- data-set sizes and data type of gesummv.c (original test code). */
#ifndef GESUMMV_H
#define GESUMMV_H

#include "bench.h"

#if !defined(N)
# ifdef MINI_DATASET
#  define N 26
# endif
# ifdef SMALL_DATASET
#  define N 80
# endif
# ifdef MEDIUM_DATASET
#  define N 240
# endif
# ifdef LARGE_DATASET
#  define N 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define N 2600
# endif
#endif

#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
