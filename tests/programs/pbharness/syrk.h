/* syrk.h -- data-set sizes and data type of syrk.c (original test code). */
#ifndef SYRK_H
#define SYRK_H

#include "bench.h"

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 26
#  define N 30
# endif
# ifdef SMALL_DATASET
#  define M 58
#  define N 78
# endif
# ifdef MEDIUM_DATASET
#  define M 230
#  define N 250
# endif
# ifdef LARGE_DATASET
#  define M 980
#  define N 1180
# endif
# ifdef EXTRALARGE_DATASET
#  define M 1980
#  define N 2380
# endif
#endif

#define _PB_M BENCH_LOOP_BOUND(M, m)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
