/* gramschmidt.h -- data-set sizes and data type of gramschmidt.c (original test code). */
#ifndef GRAMSCHMIDT_H
#define GRAMSCHMIDT_H

#include "bench.h"

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 18
#  define N 14
# endif
# ifdef SMALL_DATASET
#  define M 56
#  define N 66
# endif
# ifdef MEDIUM_DATASET
#  define M 190
#  define N 230
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
