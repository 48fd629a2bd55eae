/* OpenMP directives written with the _Pragma operator, as portable code hides them behind macros:
 * a string literal, a stringized macro argument, a directive built from two macros, variadic clauses. */
#include <stdio.h>
#include <omp.h>

#define PRAGMA(x) _Pragma(#x)
#define OMP(directive) PRAGMA(omp directive)
#define PARALLEL_FOR _Pragma("omp parallel for")
#define SUM_INTO(v) OMP(parallel for reduction(+:v))
#define TEAM(...) PRAGMA(omp parallel __VA_ARGS__)
#define QUIET_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wunused\"")
#define QUIET_END _Pragma("GCC diagnostic pop")
/* macros on ordinary `#pragma omp` lines: a clause written by a function-like macro, and macro arguments */
#define CHUNKED(kind, n) schedule(kind, n)
#define WORKERS(n) ((n) > 2 ? 2 : (n))
#define CAP 3

static double field[4000];

int main(void) {
    double total = 0;
    int team = 0, hits[64] = { 0 };
    PARALLEL_FOR
    for (int i = 0; i < 4000; i++)
        field[i] = 0.25 * i;
    SUM_INTO(total)
    for (int i = 0; i < 4000; i++)
        total += field[i];
    TEAM(shared(team, hits))
    {
        OMP(single)
        team = omp_get_num_threads();
        OMP(atomic)
        hits[omp_get_thread_num()]++;
    }
    QUIET_BEGIN
    int seen = 0, busy = 0;
    QUIET_END
    for (int t = 0; t < 64; t++) {
        seen += hits[t];
        busy += hits[t] != 0;
    }
    long odd = 0;
#pragma omp parallel for CHUNKED(dynamic, CAP) num_threads(WORKERS(CAP)) reduction(+:odd)
    for (int i = 0; i < 1000; i++)
        odd += (i % 2) * (long)omp_get_num_threads();
    printf("%g team=%d seen=%d busy=%d odd=%ld\n", total, team, seen, busy, odd);
    return 0;
}
