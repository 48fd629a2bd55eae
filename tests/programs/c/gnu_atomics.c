/* GNU atomic builtins as C libraries use them: reference counts in structs, a spinlock from
   __sync_lock_test_and_set guarding plain updates, compare-and-swap loops, a lock-free stack push, fences, and
   the generic pointer forms; two threads make every race real. */
#include <pthread.h>
#include <stdio.h>

struct object { long id; int refs; unsigned flags; };
struct node { struct node *next; int value; };

static struct object shared = {7, 1, 0};
static int lock;
static long guarded, cas_total;
static unsigned long relaxed_hits;
static struct node *top;
static struct node nodes[2][1000];

static void retain(struct object *o) { __atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED); }
static int release(struct object *o) { return __atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) == 0; }

static void *worker(void *arg) {
  int me = *(int *)arg;
  for (int i = 0; i < 20000; i++) {
    retain(&shared);
    while (__sync_lock_test_and_set(&lock, 1)) { }
    guarded += i % 3;
    __sync_lock_release(&lock);
    long seen = __atomic_load_n(&cas_total, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&cas_total, &seen, seen + me + 1, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) { }
    __sync_fetch_and_add(&relaxed_hits, 1);
    __atomic_fetch_or(&shared.flags, 1u << me, __ATOMIC_RELAXED);
    release(&shared);
  }
  for (int i = 0; i < 1000; i++) {
    struct node *n = &nodes[me][i];
    n->value = me * 1000 + i;
    n->next = __atomic_load_n(&top, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&top, &n->next, n, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) { }
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int k = 0; k < 2; k++) pthread_create(&t[k], 0, worker, &ids[k]);
  for (int k = 0; k < 2; k++) pthread_join(t[k], 0);
  long sum = 0, count = 0;
  for (struct node *n = top; n; n = n->next) { sum += n->value; count++; }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __sync_synchronize();
  long v = 5, old, fresh = 9;
  __atomic_exchange(&v, &fresh, &old, __ATOMIC_SEQ_CST);
  int swapped = __sync_bool_compare_and_swap(&shared.refs, 1, 10);
  int was = __sync_val_compare_and_swap(&shared.refs, 3, 4);
  printf("%d %u %ld %ld %lu\n", shared.refs, shared.flags, guarded, cas_total, relaxed_hits);
  printf("%ld %ld %ld %ld %d %d %d\n", count, sum, v, old, swapped, was, __atomic_always_lock_free(sizeof(long), 0));
  return 0;
}
