/* 3mm.h -- data-set sizes and data type of 3mm.c (original test code). */
#ifndef KERNEL_3MM_H
#define KERNEL_3MM_H

#include "bench.h"

#if !defined(NI) && !defined(NJ) && !defined(NK) && !defined(NL) && !defined(NM)
# ifdef MINI_DATASET
#  define NI 10
#  define NJ 11
#  define NK 12
#  define NL 13
#  define NM 14
# endif
# ifdef SMALL_DATASET
#  define NI 36
#  define NJ 40
#  define NK 44
#  define NL 48
#  define NM 52
# endif
# ifdef MEDIUM_DATASET
#  define NI 170
#  define NJ 180
#  define NK 200
#  define NL 210
#  define NM 220
# endif
# ifdef LARGE_DATASET
#  define NI 800
#  define NJ 900
#  define NK 1000
#  define NL 1100
#  define NM 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define NI 1600
#  define NJ 1800
#  define NK 2000
#  define NL 2200
#  define NM 2400
# endif
#endif

#define _PB_NI BENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ BENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK BENCH_LOOP_BOUND(NK, nk)
#define _PB_NL BENCH_LOOP_BOUND(NL, nl)
#define _PB_NM BENCH_LOOP_BOUND(NM, nm)

#include "bench_types.h"

#endif
