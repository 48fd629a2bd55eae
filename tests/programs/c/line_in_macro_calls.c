/* __LINE__ from macro bodies whose calls span several lines (test harnesses' CHECK macros, assert): gcc gives
   the line of the macro's name, clang the line of the closing parenthesis. Also the cases that must keep
   their value: __LINE__ written as an argument, pasted numbers and predefined macros in multi-line calls,
   #line directives. */
#include <assert.h>
#include <limits.h>
#include <stdio.h>

static int failures;

#define EXPECT(cond, what)                                                   \
  do {                                                                       \
    if (!(cond)) {                                                           \
      failures++;                                                            \
      printf("%s:%d: expected %s\n", "t", __LINE__, what);                   \
    } else                                                                   \
      printf("passed at %d\n", __LINE__);                                    \
  } while (0)
#define HERE() __LINE__
#define WHERE(tag, n) (tag * 1000 + HERE() + (n))
#define PASTE(a, b) a##b
#define GLUE(tag, \
             n) (PASTE(1, 2) + (tag) + (n))
#define BITS(x) ((x) * CHAR_BIT + __LINE__)
#define REPORT(v) printf("%s = %ld\n", #v, (long)(v))

static long checked(long v, int line) { return v * 100 + line; }
#define CHECKED(v) checked((v), __LINE__)

int main(void) {
  EXPECT(1 + 1 == 2,
         "arithmetic");
  EXPECT(sizeof(int) == 2,
         "a 16-bit int"
  );
  REPORT(WHERE(3,
               4));
  REPORT(WHERE(5, __LINE__
               ));
  REPORT(GLUE(7,
              8));
  REPORT(BITS(
      2));
  REPORT(CHECKED(
      9));
  long total = 0;
  for (int i = 0; i < 3; i++)
    total += CHECKED(i
                     + 1);
  REPORT(total);
  assert(total > 0 &&
         failures == 1);
  printf("failures %d\n", failures);
#line 500
  EXPECT(failures == 1,
         "after #line");
  return 0;
}
