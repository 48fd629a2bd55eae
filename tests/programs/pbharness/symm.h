/* symm.h -- data-set sizes and data type of symm.c (original test code). */
#ifndef SYMM_H
#define SYMM_H

#include "bench.h"

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 18
#  define N 26
# endif
# ifdef SMALL_DATASET
#  define M 50
#  define N 62
# endif
# ifdef MEDIUM_DATASET
#  define M 190
#  define N 230
# endif
# ifdef LARGE_DATASET
#  define M 960
#  define N 1160
# endif
# ifdef EXTRALARGE_DATASET
#  define M 1960
#  define N 2360
# endif
#endif

#define _PB_M BENCH_LOOP_BOUND(M, m)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
