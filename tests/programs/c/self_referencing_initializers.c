/* Locals whose initializer names the variable itself, as C11 6.2.1p7 allows: a seed taken from the variable's own
   address (gnulib's tempname.c style), a pointer to itself, and an intrusive list head initialized empty. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

struct list_head { struct list_head *next, *prev; };

static int list_empty(const struct list_head *h) { return h->next == h; }

static unsigned mix_seed(unsigned salt)
{
  uintptr_t v = ((uintptr_t) &v) / _Alignof(max_align_t);  /* the address only adds entropy */
  unsigned r = (unsigned) (v ^ v) + salt * 2654435761u;      /* ... so keep the printed value independent of it */
  return r >> 7;
}

int main(void)
{
  void *self = &self;
  struct list_head head = { &head, &head };
  char buf[16];
  char *cursor = buf + sizeof cursor;
  printf("self %d\n", self == (void *) &self);
  printf("empty %d\n", list_empty(&head));
  printf("seed %u %u\n", mix_seed(1), mix_seed(77));
  printf("cursor %d\n", (int) (cursor - buf));
  return 0;
}
