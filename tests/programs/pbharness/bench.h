/*
 * bench.h -- harness for the kernels in this directory.
 *
 * Original code written for pgcc's tests.  It reproduces the *layout* of a
 * classic benchmark-suite utility header (the kind PolyBench/C ships as
 * utilities/polybench.h): arrays are heap blocks seen through pointers to
 * constant-size arrays, array parameters are written with macros that expand
 * to constant sizes (or to C99 VLA sizes when BENCH_USE_C99_PROTO is set),
 * the timer/flush helpers live in a second translation unit (bench.c), and
 * results are dumped to stderr only in dump mode.
 *
 * Configuration macros (all optional):
 *   BENCH_DUMP_ARRAYS      print the result arrays to stderr
 *   BENCH_TIME             real timer (gettimeofday) instead of a zero clock
 *   BENCH_RUN_TIMERS       call the timer/flush helpers even without BENCH_TIME
 *   BENCH_USE_C99_PROTO    array parameters sized by the int parameters (VLA)
 *   BENCH_USE_SCALAR_LB    loop bounds from the size macros, not the parameters
 *   BENCH_PADDING_FACTOR   extra elements added to every array dimension
 *   BENCH_STACK_ARRAYS     local arrays instead of heap blocks
 *   BENCH_NO_FLUSH_CACHE   skip the cache flush before timing
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdlib.h>

/* ------------------------------------------------------------ array layout */
#ifndef BENCH_PADDING_FACTOR
# define BENCH_PADDING_FACTOR 0
#endif

#ifdef BENCH_USE_C99_PROTO
# define BENCH_C99_SELECT(fixed, dynamic) dynamic
#else
# define BENCH_C99_SELECT(fixed, dynamic) fixed
#endif

#ifdef BENCH_USE_SCALAR_LB
# define BENCH_LOOP_BOUND(fixed, dynamic) fixed
#else
# define BENCH_LOOP_BOUND(fixed, dynamic) dynamic
#endif

/* Parameter / declarator of an array: `double BENCH_2D(A, N, M, n, m)`. */
#define BENCH_1D(v, d1, dd1) \
  v[BENCH_C99_SELECT(d1, dd1) + BENCH_PADDING_FACTOR]
#define BENCH_2D(v, d1, d2, dd1, dd2) \
  v[BENCH_C99_SELECT(d1, dd1) + BENCH_PADDING_FACTOR] \
   [BENCH_C99_SELECT(d2, dd2) + BENCH_PADDING_FACTOR]
#define BENCH_3D(v, d1, d2, d3, dd1, dd2, dd3) \
  v[BENCH_C99_SELECT(d1, dd1) + BENCH_PADDING_FACTOR] \
   [BENCH_C99_SELECT(d2, dd2) + BENCH_PADDING_FACTOR] \
   [BENCH_C99_SELECT(d3, dd3) + BENCH_PADDING_FACTOR]

/* A local array of the same shape (e.g. a scratch vector inside a kernel). */
#define BENCH_1D_VAR(v, d1, dd1) BENCH_1D(v, d1, dd1)

/* Heap arrays: `double (*A)[N][M]; A = (double (*)[N][M]) bench_alloc_data(...)`;
   with BENCH_STACK_ARRAYS, local arrays `double A[N][M];` instead. */
#define BENCH_ALLOC_1D(n1, type) \
  (type (*)[n1 + BENCH_PADDING_FACTOR]) \
  bench_alloc_data(n1 + BENCH_PADDING_FACTOR, sizeof(type))
#define BENCH_ALLOC_2D(n1, n2, type) \
  (type (*)[n1 + BENCH_PADDING_FACTOR][n2 + BENCH_PADDING_FACTOR]) \
  bench_alloc_data((n1 + BENCH_PADDING_FACTOR) * (n2 + BENCH_PADDING_FACTOR), sizeof(type))
#define BENCH_ALLOC_3D(n1, n2, n3, type) \
  (type (*)[n1 + BENCH_PADDING_FACTOR][n2 + BENCH_PADDING_FACTOR][n3 + BENCH_PADDING_FACTOR]) \
  bench_alloc_data((n1 + BENCH_PADDING_FACTOR) * (n2 + BENCH_PADDING_FACTOR) * \
                   (n3 + BENCH_PADDING_FACTOR), sizeof(type))

#ifdef BENCH_STACK_ARRAYS
# define BENCH_1D_ARRAY(v, type, d1, dd1) type BENCH_1D(v, d1, dd1)
# define BENCH_2D_ARRAY(v, type, d1, d2, dd1, dd2) type BENCH_2D(v, d1, d2, dd1, dd2)
# define BENCH_3D_ARRAY(v, type, d1, d2, d3, dd1, dd2, dd3) type BENCH_3D(v, d1, d2, d3, dd1, dd2, dd3)
# define BENCH_ARRAY(v) v
# define BENCH_FREE_ARRAY(v)
#else
# define BENCH_PTR_VAR(v) (*v)
# define BENCH_1D_ARRAY(v, type, d1, dd1) \
  type BENCH_1D(BENCH_PTR_VAR(v), d1, dd1); \
  v = BENCH_ALLOC_1D(BENCH_C99_SELECT(d1, dd1), type)
# define BENCH_2D_ARRAY(v, type, d1, d2, dd1, dd2) \
  type BENCH_2D(BENCH_PTR_VAR(v), d1, d2, dd1, dd2); \
  v = BENCH_ALLOC_2D(BENCH_C99_SELECT(d1, dd1), BENCH_C99_SELECT(d2, dd2), type)
# define BENCH_3D_ARRAY(v, type, d1, d2, d3, dd1, dd2, dd3) \
  type BENCH_3D(BENCH_PTR_VAR(v), d1, d2, d3, dd1, dd2, dd3); \
  v = BENCH_ALLOC_3D(BENCH_C99_SELECT(d1, dd1), BENCH_C99_SELECT(d2, dd2), \
                     BENCH_C99_SELECT(d3, dd3), type)

/* The array a heap pointer points to (passed to the array parameters). */
# define BENCH_ARRAY(v) *v
# define BENCH_FREE_ARRAY(v) free((void *)v)
#endif

/* ------------------------------------------------------------ dumping */
#define BENCH_DUMP_TARGET stderr
#define BENCH_DUMP_START    fprintf(BENCH_DUMP_TARGET, "<<< arrays\n")
#define BENCH_DUMP_FINISH   fprintf(BENCH_DUMP_TARGET, ">>> arrays\n")
#define BENCH_DUMP_BEGIN(s) fprintf(BENCH_DUMP_TARGET, "[%s]", s)
#define BENCH_DUMP_END(s)   fprintf(BENCH_DUMP_TARGET, "\n[/%s]\n", s)

/* Printing the results is what keeps the kernel alive; outside dump mode the
   print call is guarded by a test no ordinary run satisfies. */
#ifdef BENCH_DUMP_ARRAYS
# define BENCH_ONLY_TO_KEEP_RESULTS
#else
# define BENCH_ONLY_TO_KEEP_RESULTS if (argc > 42 && ! strcmp(argv[0], ""))
#endif
#define bench_prevent_dce(call) \
  BENCH_ONLY_TO_KEEP_RESULTS    \
  call

/* ------------------------------------------------------------ instruments */
#define bench_start_instruments
#define bench_stop_instruments
#define bench_print_instruments

#if defined(BENCH_TIME) || defined(BENCH_RUN_TIMERS)
# undef bench_start_instruments
# undef bench_stop_instruments
# undef bench_print_instruments
# define bench_start_instruments bench_timer_start();
# define bench_stop_instruments bench_timer_stop();
# define bench_print_instruments bench_timer_print();
extern void bench_timer_start();
extern void bench_timer_stop();
extern void bench_timer_print();
#endif

/* Declared the old way (no prototype), as such harnesses often are. */
extern void bench_flush_cache();
extern void bench_prepare_instruments();

extern void *bench_alloc_data(unsigned long long int n, int elt_size);
extern void bench_free_data(void *ptr);

/* ------------------------------------------------------------ data sets */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && \
    !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
# define MEDIUM_DATASET
#endif

#endif /* BENCH_H */
