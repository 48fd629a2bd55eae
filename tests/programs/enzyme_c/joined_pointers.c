/* Pointers that loops and branches join, in reverse mode (and forward mode where it reads the same): two
   malloc'd buffers swapped every time step, two grids swapped, a malloc'd buffer and a local array swapped,
   three buffers rotated, a buffer grown with realloc inside the loop that fills it, realloc inside a while
   loop behind a branch, realloc growing a buffer from NULL, a linked list whose nodes are malloc'd in one loop
   and linked to the node of the previous iteration, then walked by a while loop, a list appended at its
   tail, a list reversed in place, two argument pointers swapped.
   Gradients and tangents against central finite differences. Prints "label derivative reference"; exits 1 when
   one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;

#define N 7
static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-5 * (1 + fabs(want)))) failures++;
}

/* double buffering: b = smooth(a), then the buffers trade places */
double ping_pong(const double *x, int n) {
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = x[i];
  for (int t = 0; t < 4; t++) {
    for (int i = 1; i < n - 1; i++) b[i] = 0.25 * a[i - 1] + 0.5 * a[i] * a[i] + 0.25 * sin(a[i + 1]);
    b[0] = a[0] * a[1];
    b[n - 1] = a[n - 1];
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  free(a);
  free(b);
  return s;
}

/* a malloc'd buffer and a local array trade places (an odd number of steps leaves the result in the array) */
double with_scratch(const double *x, int n) {
  double scratch[N];
  double *a = malloc(n * sizeof(double)), *b = scratch;
  for (int i = 0; i < n; i++) a[i] = cos(x[i]);
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < n; i++) b[i] = a[i] * x[i] + a[(i + 1) % n];
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  free(a == scratch ? b : a);
  return s;
}

/* three buffers rotated: u_new from u and u_old (a second-order recurrence in time) */
double rotate3(const double *x, int n) {
  double *old = malloc(n * sizeof(double)), *cur = malloc(n * sizeof(double)), *nxt = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { old[i] = x[i]; cur[i] = x[i] * 0.5; }
  for (int t = 0; t < 5; t++) {
    for (int i = 0; i < n; i++) nxt[i] = 1.5 * cur[i] - 0.5 * old[i] + 0.1 * cur[(i + 1) % n] * old[i];
    double *r = old;
    old = cur;
    cur = nxt;
    nxt = r;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += cur[i] - 0.5 * old[i];
  free(old);
  free(cur);
  free(nxt);
  return s;
}

/* a dynamic array grown by doubling as the loop appends to it */
double appended(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof(double));
    }
    buf[len++] = x[i] * x[i];
    if (len > 1) buf[len - 2] += 0.5 * buf[len - 1];  /* reads and writes elements moved by earlier reallocs */
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += sin(buf[i]) * x[n - 1 - i];
  free(buf);
  return s;
}

/* a while loop that grows its buffer by three elements when full, then one more realloc at the top level */
double grow_while(const double *x, int n) {
  int cap = 2, len = 0, i = 0;
  double *buf = malloc(cap * sizeof(double));
  buf[len++] = 1.0;
  while (i < n) {
    if (len + 1 > cap) {
      cap += 3;
      buf = realloc(buf, cap * sizeof(double));
    }
    buf[len] = buf[len - 1] * x[i] + 0.25;
    len++;
    i++;
  }
  buf = realloc(buf, (len + 1) * sizeof(double));
  buf[len] = buf[len - 1] * buf[1];
  double r = buf[len] + buf[len - 2];
  free(buf);
  return r;
}

/* realloc growing a buffer from NULL behind a data-dependent branch; a pointer a branch chooses between two
   buffers */
double from_null(const double *x, int n) {
  double *buf = NULL;
  int len = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.55) {
      buf = realloc(buf, (len + 1) * sizeof(double));
      buf[len++] = exp(x[i]);
    }
  }
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) { a[i] = x[i] * 2; b[i] = sin(x[i]); }
  double *p = len > 2 ? a : b;
  double s = 0;
  for (int i = 0; i < len; i++) s += buf[i] * buf[(i + 1) % len] * p[i];
  free(buf);
  free(a);
  free(b);
  return s;
}

/* heat diffusion on a grid, the two grids (pointers to rows) swapped every time step */
#define M 5
double heat2d(const double *x, int n) {
  double (*u)[M] = malloc(sizeof(double[M][M])), (*v)[M] = malloc(sizeof(double[M][M]));
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      u[i][j] = x[i % n] * x[(j + 2) % n];
      v[i][j] = 0;
    }
  for (int t = 0; t < 3; t++) {
    for (int i = 1; i < M - 1; i++)
      for (int j = 1; j < M - 1; j++)
        v[i][j] = 0.2 * (u[i][j] + u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + sin(u[i][j + 1]));
    double (*w)[M] = u;
    u = v;
    v = w;
  }
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) s += u[i][j] * (i + 2 * j);
  free(u);
  free(v);
  return s;
}

typedef struct node { double v; const double *p; struct node *next; } node;

/* a stack of nodes, each linked to the node malloc'd in the previous iteration, walked and freed by a while
   loop */
double list_sum(const double *x, int n) {
  node *h = 0;
  for (int i = 0; i < n; i++) {
    node *s = malloc(sizeof(node));
    s->v = x[i] * x[i];
    s->p = x + (n - 1 - i);
    s->next = h;
    h = s;
  }
  double r = 0, w = 1;
  while (h) {
    node *nx = h->next;
    r += w * h->v * h->p[0];
    w *= 0.9;
    free(h);
    h = nx;
  }
  return r;
}

/* the list appended at its tail (the tail pointer joins the first node and the later ones), then a product */
double list_tail(const double *x, int n) {
  node *head = malloc(sizeof(node)), *tail = head;
  head->v = x[0];
  head->p = x;
  head->next = 0;
  for (int i = 1; i < n; i++) {
    node *s = malloc(sizeof(node));
    s->v = sin(x[i]);
    s->p = x + i;
    s->next = 0;
    tail->next = s;
    tail = s;
  }
  double r = 0;
  for (node *c = head; c; c = c->next) r = r * 0.5 + c->v * c->p[0];
  while (head) {
    node *nx = head->next;
    free(head);
    head = nx;
  }
  return r;
}

/* the list built as a stack, reversed in place (its next pointers rewritten), then walked */
double list_reverse(const double *x, int n) {
  node *h = 0;
  for (int i = 0; i < n; i++) {
    node *s = malloc(sizeof(node));
    s->p = x + i;
    s->v = x[i] * 0.5;
    s->next = h;
    h = s;
  }
  node *r = 0;
  while (h) {
    node *nx = h->next;
    h->next = r;
    r = h;
    h = nx;
  }
  double t = 0;
  while (r) {
    node *nx = r->next;
    t = t * 0.5 + r->v * r->p[0] + cos(r->v);
    free(r);
    r = nx;
  }
  return t;
}

/* two argument pointers swapped every iteration */
double swap_args(double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += *x * i * *x;
    double *t = x;
    x = y;
    y = t;
  }
  return s;
}

typedef double (*objective)(const double *, int);

static double central(objective f, double *x, int i) {
  double keep = x[i], h = 1e-6;
  x[i] = keep + h; double up = f(x, N);
  x[i] = keep - h; double dn = f(x, N);
  x[i] = keep;
  return (up - dn) / (2 * h);
}

#define GRADIENT_CHECKS(label, f)                                                   \
  do {                                                                              \
    double x[N], dx[N] = {0};                                                       \
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.15 * i;                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);               \
    for (int i = 0; i < N; i++) check(label, i, dx[i], central(f, x, i));           \
  } while (0)

#define TANGENT_CHECKS(label, f)                                                    \
  do {                                                                              \
    double x[N];                                                                    \
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.15 * i;                              \
    for (int i = 0; i < N; i++) {                                                   \
      double e[N] = {0};                                                            \
      e[i] = 1;                                                                     \
      check(label, i, __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N), central(f, x, i)); \
    }                                                                               \
  } while (0)

int main(void) {
  GRADIENT_CHECKS("swap_rev", ping_pong);
  GRADIENT_CHECKS("scratch_rev", with_scratch);
  GRADIENT_CHECKS("rot3_rev", rotate3);
  GRADIENT_CHECKS("append_rev", appended);
  GRADIENT_CHECKS("grow_rev", grow_while);
  GRADIENT_CHECKS("null_rev", from_null);
  GRADIENT_CHECKS("list_rev", list_sum);
  GRADIENT_CHECKS("tail_rev", list_tail);
  GRADIENT_CHECKS("lrev_rev", list_reverse);
  {
    double a = 1.5, da = 0, b = 2.5, db = 0;
    __enzyme_autodiff((void *)swap_args, enzyme_dup, &a, &da, enzyme_dup, &b, &db, enzyme_const, 4);
    check("swap_args_a", 0, da, 2 * 2 * a);  /* s = 2a^2 + 4b^2 */
    check("swap_args_b", 1, db, 2 * 4 * b);
  }
  GRADIENT_CHECKS("heat_rev", heat2d);
  TANGENT_CHECKS("rot3_fwd", rotate3);
  TANGENT_CHECKS("list_fwd", list_sum);
  TANGENT_CHECKS("tail_fwd", list_tail);
  TANGENT_CHECKS("null_fwd", from_null);
  TANGENT_CHECKS("lrev_fwd", list_reverse);
  TANGENT_CHECKS("heat_fwd", heat2d);
  return failures ? 1 : 0;
}
