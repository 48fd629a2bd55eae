/* Inline functions in a header that every file of a program includes, as gnulib writes them: a macro says
   `inline` (an inline definition: no symbol) everywhere but in the one file that says `extern inline` (the
   external definition). Also GNU's `extern inline` with gnu_inline (the definition only for inlining) and a
   static forward declaration that makes a later definition internal. */
#ifndef INLINE_DEFS_H
#define INLINE_DEFS_H

#ifndef COUNTER_INLINE
# define COUNTER_INLINE inline
#endif

COUNTER_INLINE int scaled(int x, int k) { return x * k + 1; }
COUNTER_INLINE long clamp_add(long a, long b, long hi) { long s = a + b; return s > hi ? hi : s; }
COUNTER_INLINE int plus_three(int x) { return x + 3; }  /* (the external definition's file does not call it) */

#ifndef DEFINE_TRIPLED
extern inline __attribute__((gnu_inline)) int tripled(int x) { return 3 * x; }
#endif
int tripled(int x);

static int local_seed(void);
int local_seed(void) { return 11; }

int inline_defs_user(int n);
#endif
