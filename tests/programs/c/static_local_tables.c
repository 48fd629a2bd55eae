/* Static locals whose initializers hold addresses: of file-scope arrays (a keyword table inside a parser
 * function, as XML and option parsers write it) and of other static locals. */
#include <stdio.h>
#include <string.h>

static const char KW_CDATA[] = {'C', 'D', 'A', 'T', 'A', '\0'};
static const char KW_ID[] = {'I', 'D', '\0'};
static const char KW_IDREF[] = {'I', 'D', 'R', 'E', 'F', '\0'};
static const char KW_NMTOKEN[] = {'N', 'M', 'T', 'O', 'K', 'E', 'N', '\0'};

static int attribute_type(const char *name)
{
  static const char *const types[] = { KW_CDATA, KW_ID, KW_IDREF, KW_NMTOKEN };
  for (int i = 0; i < (int)(sizeof types / sizeof types[0]); i++)
    if (strcmp(name, types[i]) == 0)
      return i;
  return -1;
}

static int counter(int step)
{
  static int total = 5;
  static int *cursor = &total;
  static int history[3] = {1, 2, 3};
  static int *picks[2] = { &history[1], &total };
  *cursor += step;
  history[step % 3] += step;
  return total + *picks[0] + *picks[1];
}

int main(void)
{
  const char *names[] = { "ID", "NMTOKEN", "CDATA", "ENTITY", "IDREF" };
  for (int i = 0; i < 5; i++)
    printf("%s=%d ", names[i], attribute_type(names[i]));
  printf("\n");
  for (int step = 1; step <= 4; step++)
    printf("%d ", counter(step));
  printf("\n");
  return 0;
}
