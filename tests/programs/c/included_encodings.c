/* Global initializers written in an included source file that take addresses of members of globals defined in
 * the including one (see included_encodings_ns.inc). */
#include <stdio.h>

struct encoding { int width; const char *name; };
struct normal_encoding { struct encoding enc; int flags; };

static const struct normal_encoding latin1 = { {1, "latin1"}, 3 };
static const struct normal_encoding utf8 = { {4, "utf8"}, 5 };
static const struct normal_encoding ns_latin1 = { {10, "ns-latin1"}, 3 };
static const struct normal_encoding ns_utf8 = { {40, "ns-utf8"}, 5 };

#define NS(x) x
#include "included_encodings_ns.inc"
#undef NS
#define NS(x) ns_##x
#include "included_encodings_ns.inc"
#undef NS

int main(void)
{
  printf("%d %d %s %s\n", total_width(), ns_total_width(), encodings[2]->name, ns_encodings[1]->name);
  return 0;
}
