/* Functions returning and taking structs called through declarations without a prototype (`block gen_noop();`,
   as a JSON processor's code generator declares them): defined in unprototyped_records_lib.c, and by a K&R
   definition here. */
#include <stdio.h>
typedef struct { int kind; int len; void *p; } block;   /* two INTEGER eightbytes */
typedef struct { char name[30]; double w; } big;          /* memory: sret / byval */
block gen_noop();
big make_big();
double weigh();
static block gen_const();

int main(void) {
  block b = gen_noop();
  block c = gen_const(7, 2.5);
  big g = make_big(4);
  printf("%d %d %d %d %s %g %g\n", b.kind, b.len, c.kind, c.len, g.name, g.w, weigh(g, 2.0));
  return 0;
}

static block gen_const(v, scale) int v; double scale; { block r = {v, (int)(v * scale), 0}; return r; }
