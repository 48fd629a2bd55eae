/* fdtd-2d.h -- data-set sizes and data type of fdtd-2d.c (original test code). */
#ifndef FDTD_2D_H
#define FDTD_2D_H

#include "bench.h"

#if !defined(TMAX) && !defined(NX) && !defined(NY)
# ifdef MINI_DATASET
#  define TMAX 16
#  define NX 18
#  define NY 22
# endif
# ifdef SMALL_DATASET
#  define TMAX 30
#  define NX 54
#  define NY 66
# endif
# ifdef MEDIUM_DATASET
#  define TMAX 80
#  define NX 190
#  define NY 240
# endif
# ifdef LARGE_DATASET
#  define TMAX 400
#  define NX 980
#  define NY 1180
# endif
# ifdef EXTRALARGE_DATASET
#  define TMAX 900
#  define NX 1980
#  define NY 2580
# endif
#endif

#define _PB_TMAX BENCH_LOOP_BOUND(TMAX, tmax)
#define _PB_NX BENCH_LOOP_BOUND(NX, nx)
#define _PB_NY BENCH_LOOP_BOUND(NY, ny)

#include "bench_types.h"

#endif
