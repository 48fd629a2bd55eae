/* Globals whose initializers take their own address (a sentinel list head, a ring), variables with a second
   name (__attribute__((alias))) and weak variables; wrong11_globals_lib.c defines one of the weak ones
   strongly and uses the aliases by their other names. */
#include <stdio.h>

struct node { struct node *next, *prev; long value; };
struct node head = { &head, &head, 7 };

struct link { struct link *to; int tag; };
static struct link ring[4] = { { &ring[1], 3 }, { &ring[2], 5 }, { &ring[3], 7 }, { &ring[0], 11 } };
struct link self_loop = { &self_loop, -1 };

int counter = 5;
extern int counter_alias __attribute__((alias("counter")));
static double samples[4] = { 0.5, 1.5, 2.5, 3.5 };
extern double samples_alias[4] __attribute__((alias("samples")));
long big_total;
extern long weak_total __attribute__((weak, alias("big_total")));

int replaced __attribute__((weak)) = 3;  /* wrong11_globals_lib.c's strong definition wins */
int kept __attribute__((weak)) = 4;      /* defined nowhere else */
extern int never_defined __attribute__((weak));

/* static aliases: the lib file has its own of the same names (internal symbols, as gcc makes them) */
static int shared_name __attribute__((alias("counter")));
static int twice(int x) { return 2 * x; }
static int scaled(int) __attribute__((alias("twice")));

void lib_update(void);
int lib_replaced(void);
int lib_static_aliases(void);

static void insert(struct node *n) {
  n->next = head.next;
  n->prev = &head;
  head.next->prev = n;
  head.next = n;
}

int main(void) {
  struct node a = { 0, 0, 10 }, b = { 0, 0, 20 };
  insert(&a);
  insert(&b);
  long sum = 0;
  for (struct node *p = head.next; p != &head; p = p->next)
    sum = sum * 100 + p->value;
  long walk = 0;
  struct link *l = &ring[0];
  for (int i = 0; i < 9; i++) {
    walk = walk * 3 + l->tag;
    l = l->to;
  }
  printf("list %ld back %ld ring %ld self %d %d\n", sum, head.prev->value, walk, self_loop.to == &self_loop,
         self_loop.to->to->tag);

  counter_alias += 10;
  samples_alias[2] *= 4;
  weak_total = 40;
  lib_update();
  printf("alias %d %d %g %g %ld %ld same %d %d\n", counter, counter_alias, samples[2], samples_alias[1],
         big_total, weak_total, &counter == &counter_alias, (void *)samples == (void *)samples_alias);
  printf("weak %d %d %d %d\n", replaced, lib_replaced(), kept, &never_defined == 0);
  printf("static aliases %d %d %d\n", shared_name, scaled(21), lib_static_aliases());
  return 0;
}
