/* jacobi-2d.h -- data-set sizes and data type of jacobi-2d.c (original test code). */
#ifndef JACOBI_2D_H
#define JACOBI_2D_H

#include "bench.h"

#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 16
#  define N 26
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 30
#  define N 80
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 80
#  define N 240
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 400
#  define N 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 900
#  define N 2600
# endif
#endif

#define _PB_TSTEPS BENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
