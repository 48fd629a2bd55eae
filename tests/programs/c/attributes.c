/* GNU attributes that change what a program does: constructors and destructors with priorities run around
   main, weak definitions, over-aligned globals and locals, thread-local variables (one per thread, checked
   with two POSIX threads), and hints that change nothing. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define ALIGNED(n) __attribute__((aligned(n)))
#define HOT __attribute__((hot, noinline))

static int trace;
__attribute__((constructor(200))) static void second(void) { trace = trace * 10 + 2; }
__attribute__((constructor(101))) static void first(void) { trace = trace * 10 + 1; }
__attribute__((constructor)) static void last(void) { trace = trace * 10 + 3; }
__attribute__((destructor)) static void finish(void) { printf("exit trace %d\n", trace); }

__attribute__((weak)) int plugin_version(void) { return 7; }

static char page[100] __attribute__((aligned(4096)));
double table[4] ALIGNED(64) = {1, 2, 3, 4};

_Thread_local int tls_counter = 5;
static __thread long tls_sum;

static void *work(void *arg) {
    long k = (long)(intptr_t)arg;
    for (int i = 0; i < 1000; i++) {
        tls_counter++;
        tls_sum += k;
    }
    return (void *)(intptr_t)(tls_counter * 100000 + tls_sum);
}

HOT static int twice(int x) __attribute__((const));
static int twice(int x) { return 2 * x; }

int main(void) {
    char local[24] __attribute__((aligned(32)));
    long long wide ALIGNED(128) = 3;
    pthread_t a, b;
    void *ra, *rb;
    pthread_create(&a, 0, work, (void *)1);
    pthread_create(&b, 0, work, (void *)2);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    local[0] = 'x';
    printf("trace %d version %d twice %d\n", trace, plugin_version(), twice(21));
    printf("aligned %d %d %d %d\n", (int)((uintptr_t)page % 4096), (int)((uintptr_t)table % 64),
           (int)((uintptr_t)local % 32), (int)((uintptr_t)&wide % 128));
    printf("threads %ld %ld main %d %ld\n", (long)(intptr_t)ra, (long)(intptr_t)rb, tls_counter, tls_sum);
    trace = 4;
    return local[0] == 'x' && wide == 3 ? 0 : 1;
}
