/* heat-3d.h -- data-set sizes and data type of heat-3d.c (original test code). */
#ifndef HEAT_3D_H
#define HEAT_3D_H

#include "bench.h"

#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 16
#  define N 10
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 30
#  define N 16
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 80
#  define N 36
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 400
#  define N 110
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 900
#  define N 190
# endif
#endif

#define _PB_TSTEPS BENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N BENCH_LOOP_BOUND(N, n)

#include "bench_types.h"

#endif
