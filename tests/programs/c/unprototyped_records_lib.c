/* Definitions (with prototypes) of the functions unprototyped_records_main.c calls without one. */
typedef struct { int kind; int len; void *p; } block;
typedef struct { char name[30]; double w; } big;
block gen_noop(void) { block b = {5, 6, 0}; return b; }
big make_big(int n) { big b = {"item", n * 1.5}; b.name[4] = (char)('0' + n); b.name[5] = 0; return b; }
double weigh(big b, double k) { return b.w * k; }
typedef struct { double re, im; } cplx;
cplx zsqr(cplx z) { cplx r = {z.re * z.re - z.im * z.im, 2 * z.re * z.im}; return r; }
