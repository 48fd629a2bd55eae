/* deriche.h -- data-set sizes and data type of deriche.c (original test code). */
#ifndef DERICHE_H
#define DERICHE_H

#include "bench.h"

#if !defined(W) && !defined(H)
# ifdef MINI_DATASET
#  define W 60
#  define H 30
# endif
# ifdef SMALL_DATASET
#  define W 180
#  define H 110
# endif
# ifdef MEDIUM_DATASET
#  define W 700
#  define H 420
# endif
# ifdef LARGE_DATASET
#  define W 3800
#  define H 2100
# endif
# ifdef EXTRALARGE_DATASET
#  define W 7600
#  define H 4300
# endif
#endif

#define _PB_W BENCH_LOOP_BOUND(W, w)
#define _PB_H BENCH_LOOP_BOUND(H, h)

#if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_FLOAT
#endif
#include "bench_types.h"

#endif
