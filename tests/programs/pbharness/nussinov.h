/* nussinov.h -- data-set sizes and data type of nussinov.c (original test code). */
#ifndef NUSSINOV_H
#define NUSSINOV_H

#include "bench.h"

#if !defined(N)
# ifdef MINI_DATASET
#  define N 50
# endif
# ifdef SMALL_DATASET
#  define N 160
# endif
# ifdef MEDIUM_DATASET
#  define N 480
# endif
# ifdef LARGE_DATASET
#  define N 2400
# endif
# ifdef EXTRALARGE_DATASET
#  define N 5400
# endif
#endif

#define _PB_N BENCH_LOOP_BOUND(N, n)

#if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_INT
#endif
#include "bench_types.h"

#endif
