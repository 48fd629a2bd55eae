/* atax.h -- data-set sizes and data type of atax.c (original test code). */
#ifndef ATAX_H
#define ATAX_H

#include "bench.h"

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 30
#  define N 34
# endif
# ifdef SMALL_DATASET
#  define M 110
#  define N 120
# endif
# ifdef MEDIUM_DATASET
#  define M 380
#  define N 400
# endif
# ifdef LARGE_DATASET
#  define M 1800
#  define N 2000
# endif
# ifdef EXTRALARGE_DATASET
#  define M 3800
#  define N 4000
# endif
#endif

#define _PB_M BENCH_LOOP_BOUND(M, m)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
