/* gcc's __builtin_types_compatible_p in the forms kernels and libraries use it: a `same type` macro on
   expressions (typeof), the ARRAY_SIZE guard that rejects pointers, type dispatch in a macro, enums and
   qualifiers; and gcc's __builtin_exit. The value is a constant of the types, never the value of the expression written in typeof. */
#include <stdio.h>

#define same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define is_array(a) (!same_type((a), &(a)[0]))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + 0 * sizeof(struct { int ok : is_array(a) ? 1 : -1; }))
#define KIND(x) (same_type(x, int) ? 'i' : same_type(x, double) ? 'd' : same_type(x, char *) ? 's' : '?')

typedef enum { RED = 3, GREEN, BLUE } color;
typedef enum { SMALL = 7, LARGE } size;
static int table[7];

/* a type-generic accessor whose handlers share a signature: chosen by the qualified type as written */
static int read_plain(void) { return 1; }
static int read_const(void) { return 2; }
static int read_ptr(void) { return 3; }
#define READER(x) _Generic((x), int: read_plain, const int: read_const, int *: read_ptr)

int main(void) {
  const int limit = 7;
  int count = 1;
  printf("readers %d %d %d\n", READER(count)(), READER(limit)(), READER(&count)() * 10 + READER(+limit)());
  int n = 5, *p = table;
  double w = 2.5;
  char *s = "x";
  color c = BLUE;
  printf("%zu %d %d\n", ARRAY_SIZE(table), is_array(table), is_array(p));
  printf("%c%c%c%c\n", KIND(n), KIND(w), KIND(s), KIND(c));
  printf("%d %d %d %d\n", same_type(GREEN, int), same_type(GREEN, LARGE), same_type(c, color),
         __builtin_types_compatible_p(int[5], int[]));
  printf("%d %d %d\n", __builtin_types_compatible_p(const int, int), same_type(n, w), same_type(table, p));
  if (same_type(RED, int) && !same_type(s, const char *))
    printf("dispatch ok\n");
  fflush(stdout);
  __builtin_exit(0);  /* gcc's builtin, which clang does not know: the library's exit */
}
