/* Functions returning and taking structs called through declarations without a prototype (`block gen_noop();`,
   as a JSON processor's code generator declares them): defined in unprototyped_records_lib.c, and by a K&R
   definition here; and through pointers to functions without a prototype (`cplx (*f)()`, as a 1990s matrix
   library maps a function over a complex vector). */
#include <stdio.h>
typedef struct { int kind; int len; void *p; } block;   /* two INTEGER eightbytes */
typedef struct { char name[30]; double w; } big;          /* memory: sret / byval */
block gen_noop();
big make_big();
double weigh();
static block gen_const();
typedef struct { double re, im; } cplx;                  /* two SSE eightbytes */
cplx zsqr();
static double half();   /* its address is taken before its (prototyped) definition below */

/* K&R: apply f to each element, as old libraries' map functions do */
static void zmap(f, x, out, n) cplx (*f)(); cplx *x, *out; int n;
{
  int i;
  for (i = 0; i < n; i++)
    out[i] = (*f)(x[i]);
}

static double total(f, n) double (*f)(); int n;
{
  big b = make_big(n);
  return n > 4 ? f(b, 0.5) + f(b, 3.0) : f(b.w);
}

int main(void) {
  block b = gen_noop();
  block c = gen_const(7, 2.5);
  big g = make_big(4);
  cplx x[3] = {{1, 2}, {-0.5, 3}, {2, 0}}, y[3];
  int i;
  printf("%d %d %d %d %s %g %g\n", b.kind, b.len, c.kind, c.len, g.name, g.w, weigh(g, 2.0));
  zmap(zsqr, x, y, 3);
  for (i = 0; i < 3; i++)
    printf("(%g,%g) ", y[i].re, y[i].im);
  printf("%g %g\n", total(weigh, 6), total(half, 3));
  return 0;
}

static block gen_const(v, scale) int v; double scale; { block r = {v, (int)(v * scale), 0}; return r; }

static double half(double x) { return x / 2; }
