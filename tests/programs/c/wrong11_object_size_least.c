/* __builtin_object_size(p, 3), the least number of bytes left in the closest surrounding subobject: each line
   prints the answer and that subobject's true remainder, which the answer must not exceed (0 means unknown).
   LLVM's objectsize counts to the end of the whole object, past the member. */
#include <stddef.h>
#include <stdio.h>

struct rec { char name[10]; int id; char tag[10]; };

__attribute__((noinline)) static void show(const char *what, size_t answer, size_t remainder) {
  printf("%s %zu %zu\n", what, answer, remainder);
}

int main(void) {
  struct rec r;
  char *p = &r.name[3];
  volatile int k = 1;
  char *q = k ? &r.tag[1] : &r.name[9];
  char *whole = (char *)&r + 2;
  show("member", __builtin_object_size(p, 3), sizeof r.name - 3);
  show("direct", __builtin_object_size(&r.name[3], 3), sizeof r.name - 3);
  show("either", __builtin_object_size(q, 3), 1);
  show("whole", __builtin_object_size(whole, 3), sizeof r - 2);
  show("least-whole", __builtin_object_size(whole, 2), sizeof r - 2);
  return 0;
}
