/* doitgen.h -- data-set sizes and data type of doitgen.c (original test code). */
#ifndef DOITGEN_H
#define DOITGEN_H

#include "bench.h"

#if !defined(NQ) && !defined(NR) && !defined(NP)
# ifdef MINI_DATASET
#  define NQ 6
#  define NR 8
#  define NP 10
# endif
# ifdef SMALL_DATASET
#  define NQ 14
#  define NR 16
#  define NP 24
# endif
# ifdef MEDIUM_DATASET
#  define NQ 36
#  define NR 40
#  define NP 150
# endif
# ifdef LARGE_DATASET
#  define NQ 130
#  define NR 140
#  define NP 160
# endif
# ifdef EXTRALARGE_DATASET
#  define NQ 240
#  define NR 250
#  define NP 270
# endif
#endif

#define _PB_NQ BENCH_LOOP_BOUND(NQ, nq)
#define _PB_NR BENCH_LOOP_BOUND(NR, nr)
#define _PB_NP BENCH_LOOP_BOUND(NP, np)

#include "bench_types.h"

#endif
