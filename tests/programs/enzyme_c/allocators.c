/* Memory obtained the ways C programs obtain it, inside differentiated functions: calloc, aligned_alloc,
   posix_memalign, malloc/free through function pointers (a local and a global never reassigned), a pool
   allocator and an arena allocator declared with Enzyme's __enzyme_allocation_like, and doubles copied bit for bit through unsigned
   long long (memcpy and a union). Both modes, against central finite differences. Prints "label derivative
   reference"; exits 1 when one is outside tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup;

#define N 6
static int failures;

static void check(const char *label, int i, double got, double want) {
  printf("%s_%d %.12g %.12g\n", label, i, got, want);
  if (!(fabs(got - want) <= 1e-6 * (1 + fabs(want)))) failures++;
}

/* a running sum kept in zeroed memory: t[i] += ... relies on calloc's zeros */
double prefix_energy(const double *x, int n) {
  double *t = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) t[j] += x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(t[i]);
  free(t);
  return s;
}

/* aligned scratch blocks, as SIMD code allocates them */
double aligned_dot(const double *x, int n) {
  size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
  double *a = aligned_alloc(64, bytes);
  double *b;
  int status = posix_memalign((void **)&b, 32, n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = exp(0.1 * x[i]); b[i] = x[i] * (i + 1); }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  free(b);
  free(a);
  return status == 0 ? s : 0;
}

/* allocation through function pointers */
typedef void *(*alloc_fn)(size_t);
void *(*const default_alloc)(size_t) = malloc;
double via_pointers(const double *x, int n) {
  alloc_fn get = malloc;
  void (*release)(void *) = free;
  double *u = get(n * sizeof(double));
  double *v = default_alloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { u[i] = x[i] * x[i]; v[i] = u[i] * x[(i + 1) % n]; }
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] / (1 + u[i]);
  release(u);
  free(v);
  return s;
}

/* a pool allocator with a bookkeeping argument, declared to Enzyme as allocation-like */
static long pool_bytes;
void *pool_get(size_t bytes, long *stat) { *stat += (long)bytes; pool_bytes += (long)bytes; return malloc(bytes); }
void pool_put(void *p, long *stat) { (void)stat; free(p); }
void *__enzyme_allocation_like[4] = {(void *)pool_get, (void *)0, (void *)"-1,1", (void *)pool_put};
double pooled(const double *x, int n) {
  long stat = 0;
  double *w = pool_get(n * sizeof(double), &stat);
  for (int i = 0; i < n; i++) w[i] = cos(x[i]) * (stat > 0 ? 1.0 : 0.0);
  double s = 0;
  for (int i = 1; i < n; i++) s += w[i] * w[i - 1];
  pool_put(w, &stat);
  return s;
}

/* an arena (bump) allocator: memory carved out of a static buffer, which is never freed; the arena's
   "release" only counts. AD keeps its calls and takes the shadow from the arena too. */
static char arena[1 << 14];
static int arena_used, arena_releases;
void *arena_take(void *base, int bytes, int *cursor) {
  char *b = base;
  int at = *cursor;
  *cursor += (bytes + 15) / 16 * 16;
  return b + at;
}
void arena_give(int *cursor, void *p) { (void)cursor; (void)p; arena_releases++; }
void *__enzyme_allocation_like_arena[4] = {(void *)arena_take, (void *)1, (void *)"2,-1", (void *)arena_give};
double *arena_squares(const double *x, int n) {
  double *m = arena_take(arena, n * (int)sizeof(double), &arena_used);
  for (int i = 0; i < n; i++) m[i] = x[i] * x[i] + sin(x[i]);
  return m;
}
double arena_chain(const double *x, int n) {
  if (arena_used > (1 << 13)) arena_used = 0;  /* (reuse the arena between the checks' many calls) */
  double *m = arena_squares(x, n);
  double s = 0;
  for (int i = 1; i < n; i++) s += m[i] * m[i - 1];
  arena_give(&arena_used, m);
  return s;
}

/* arena records holding a pointer into the input, taken and given back in every iteration */
typedef struct { double v; const double *at; } arena_rec;
double arena_records(const double *x, int n) {
  if (arena_used > (1 << 13)) arena_used = 0;
  double r = 0;
  for (int i = 0; i < n; i++) {
    arena_rec *s = arena_take(arena, sizeof(arena_rec), &arena_used);
    s->at = x + (n - 1 - i);
    s->v = sin(x[i]);
    r += s->v * s->at[0];
    arena_give(&arena_used, s);
  }
  return r;
}

/* bit copies of doubles through integers */
typedef union { double d; unsigned long long bits; } word;
double through_bits(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long u;
    double v = x[i] * x[i], back;
    memcpy(&u, &v, sizeof u);
    memcpy(&back, &u, sizeof back);
    word a, b;
    a.d = back * x[i];
    b.bits = a.bits;
    s += b.d + back;
  }
  return s;
}

typedef double (*objective)(const double *, int);

/* finite differences of f along each coordinate at the test point */
static void point(double *x) {
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.25 * i - 0.1 * (i % 3);
}
static double central(objective f, double *x, int i) {
  double keep = x[i], h = 1e-6;
  x[i] = keep + h; double up = f(x, N);
  x[i] = keep - h; double dn = f(x, N);
  x[i] = keep;
  return (up - dn) / (2 * h);
}

/* (Enzyme's first argument must name the function: a macro, not a function pointer parameter) */
#define GRADIENT_CHECKS(label, f)                                                   \
  do {                                                                              \
    double x[N], dx[N] = {0};                                                       \
    point(x);                                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);               \
    for (int i = 0; i < N; i++) {                                                   \
      double fd = central(f, x, i), e[N] = {0};                                     \
      e[i] = 1;                                                                     \
      check(label "_rev", i, dx[i], fd);                                            \
      check(label "_fwd", i, __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N), fd); \
    }                                                                               \
  } while (0)

int main(void) {
  GRADIENT_CHECKS("calloc", prefix_energy);
  GRADIENT_CHECKS("aligned", aligned_dot);
  GRADIENT_CHECKS("fnptr", via_pointers);
  GRADIENT_CHECKS("pool", pooled);
  GRADIENT_CHECKS("arena", arena_chain);
  GRADIENT_CHECKS("arena_rec", arena_records);
  GRADIENT_CHECKS("bits", through_bits);
  if (pool_bytes <= 0 || arena_releases <= 0) failures++;  /* the allocators' own effects happened */
  return failures ? 1 : 0;
}
