/* jacobi-1d.h -- data-set sizes and data type of jacobi-1d.c (original test code). */
#ifndef JACOBI_1D_H
#define JACOBI_1D_H

#include "bench.h"

#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 18
#  define N 28
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 30
#  define N 110
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 80
#  define N 380
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 400
#  define N 1900
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 900
#  define N 3800
# endif
#endif

#define _PB_TSTEPS BENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
