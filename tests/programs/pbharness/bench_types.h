/*
 * bench_types.h -- DATA_TYPE and its helpers, chosen by DATA_TYPE_IS_INT /
 * DATA_TYPE_IS_FLOAT / DATA_TYPE_IS_DOUBLE.  A kernel header sets its default
 * (most kernels: double) and then includes this file.  Original code written
 * for pgcc's tests.
 */
#ifndef BENCH_TYPES_H
#define BENCH_TYPES_H

#if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_DOUBLE
#endif

#ifdef DATA_TYPE_IS_INT
# define DATA_TYPE int
# define DATA_PRINTF_MODIFIER "%d "
# define SCALAR_VAL(x) x
#endif

#ifdef DATA_TYPE_IS_FLOAT
# define DATA_TYPE float
# define DATA_PRINTF_MODIFIER "%0.2f "
# define SCALAR_VAL(x) x##f
# define SQRT_FUN(x) sqrtf(x)
# define EXP_FUN(x) expf(x)
# define POW_FUN(x, y) powf(x, y)
#endif

#ifdef DATA_TYPE_IS_DOUBLE
# define DATA_TYPE double
# define DATA_PRINTF_MODIFIER "%0.2lf "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x, y) pow(x, y)
#endif

#endif /* BENCH_TYPES_H */
