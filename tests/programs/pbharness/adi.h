/* adi.h -- data-set sizes and data type of adi.c (original test code). */
#ifndef ADI_H
#define ADI_H

#include "bench.h"

#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 12
#  define N 18
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 30
#  define N 54
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 80
#  define N 180
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 400
#  define N 900
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 900
#  define N 1800
# endif
#endif

#define _PB_TSTEPS BENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
