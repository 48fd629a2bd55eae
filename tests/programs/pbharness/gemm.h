/* gemm.h -- data-set sizes and data type of gemm.c (original test code). */
#ifndef GEMM_H
#define GEMM_H

#include "bench.h"

#if !defined(NI) && !defined(NJ) && !defined(NK)
# ifdef MINI_DATASET
#  define NI 12
#  define NJ 14
#  define NK 16
# endif
# ifdef SMALL_DATASET
#  define NI 40
#  define NJ 44
#  define NK 48
# endif
# ifdef MEDIUM_DATASET
#  define NI 180
#  define NJ 190
#  define NK 210
# endif
# ifdef LARGE_DATASET
#  define NI 900
#  define NJ 1000
#  define NK 1100
# endif
# ifdef EXTRALARGE_DATASET
#  define NI 1800
#  define NJ 2000
#  define NK 2200
# endif
#endif

#define _PB_NI BENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ BENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK BENCH_LOOP_BOUND(NK, nk)

#include "bench_types.h"

#endif
