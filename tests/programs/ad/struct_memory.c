/* Values reached through memory: struct fields behind pointers, struct copies (by assignment and by memcpy),
   pointers stored into memory and loaded back, and recursion through a struct copy that carries an active
   pointer. Each line prints "label derivative reference"; references are hand-derived or central finite
   differences of the same function. Before these were handled, several of them silently printed 0. */
#include <stdio.h>
#include <string.h>
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);

typedef struct { int n; float *data; } F;
typedef struct { double x, y; } S;
typedef struct { int n; double *data; } P;
typedef struct { int n; double w; double *x; } R;

/* recursion through a struct copy carrying the active pointer (Enzyme's recursion test shape) */
float get(F *f) {
  if (f->n > 0) { F g = *f; g.n = 0; return get(&g); }
  return f->data[0];
}
double field_product(S *s) { return s->x * s->y; }
double copied_product(S *s) { S t = *s; return t.x * t.y; }
double memcpy_record(P *p) { P q; memcpy(&q, p, sizeof q); return q.data[0] * q.data[1]; }
double pointer_table(double *x) { double *tab[2]; tab[0] = x; tab[1] = x + 1; return tab[0][0] * tab[1][0]; }
double moved_pointer(P *p) { P q = *p; q.data = q.data + 1; return q.data[0] * 3; }
/* a record with a float field and a pointer field copied at every level of a recursion */
double walk(R *r) {
  if (r->n > 0) { R c = *r; c.n = c.n - 1; c.w = c.w * sin(c.x[c.n]); return walk(&c); }
  return r->w * r->x[0];
}
/* a record built field by field from arguments, then read back */
double build(double *x, double a) { P q; q.n = 2; q.data = x; S s; s.x = a; s.y = q.data[1]; return s.x * s.y * q.data[0]; }

/* structs passed by value: the C ABI moves them in integer / SSE pieces (int and float bytes in one i64, two
   floats in one double, a pointer in an i64) */
typedef struct { int n; float x; } IF;
typedef struct { float a, b; } FF;
typedef struct { int n; float w; double *p; } IWP;
float use_if(IF s) { return s.x * s.x * s.n; }
float by_value_if(IF *p) { return use_if(*p); }
float use_ff(FF s) { return s.a * s.b; }
float by_value_ff(FF *p) { return use_ff(*p); }
double use_iwp(IWP s) { return s.p[0] * s.p[1] * s.w; }
double by_value_iwp(IWP *q) { return use_iwp(*q); }

/* a record holding a string literal next to differentiated fields */
typedef struct { const char *name; double v; double *p; } N;
double named(double *x) { N n; n.name = "weight"; n.v = x[0]; n.p = x + 1; return n.v * n.p[0] + (n.name[0] == 'w'); }

/* a record with a member array, a pointer and a float, copied */
typedef struct { double v[3]; double *p; float w; } MA;
double member_array(MA *a) { MA t = *a; double s = 0; for (int i = 0; i < 3; i++) s += t.v[i] * t.v[i]; return s * t.p[0] + t.w; }

static int fails = 0;
static void check(const char *label, double got, double want, double tol) {
  printf("%s %.12g %.12g\n", label, got, want);
  if (fabs(got - want) > tol * (1 + fabs(want))) fails++;
}

int main(void) {
  float d[1] = {2.0f}, dd[1] = {0};
  F f = {3, d}, df = {0, dd};
  __enzyme_autodiff_f((void *)get, &f, &df);
  check("rec_rev", dd[0], 1.0, 1e-6);
  float td[1] = {1.0f};
  F tf = {0, td};
  check("rec_fwd", __enzyme_fwddiff_f((void *)get, &f, &tf), 1.0, 1e-6);

  S s = {2, 3}, ds = {0.5, 0};  /* shadows accumulate: += */
  __enzyme_autodiff((void *)field_product, &s, &ds);
  check("field_x", ds.x, 3.5, 1e-12); check("field_y", ds.y, 2, 1e-12);
  S ts = {1, 0};
  check("field_fwd", __enzyme_fwddiff((void *)field_product, &s, &ts), 3, 1e-12);
  S ds2 = {0, 0};
  __enzyme_autodiff((void *)copied_product, &s, &ds2);
  check("copy_x", ds2.x, 3, 1e-12); check("copy_y", ds2.y, 2, 1e-12);
  S ts2 = {0, 1};
  check("copy_fwd", __enzyme_fwddiff((void *)copied_product, &s, &ts2), 2, 1e-12);

  double a[2] = {2, 3}, da[2] = {0, 0};
  P p = {2, a}, dp = {2, da};
  __enzyme_autodiff((void *)memcpy_record, &p, &dp);
  check("memcpy_0", da[0], 3, 1e-12); check("memcpy_1", da[1], 2, 1e-12);
  double db[2] = {0, 0};
  __enzyme_autodiff((void *)pointer_table, a, db);
  check("table_0", db[0], 3, 1e-12); check("table_1", db[1], 2, 1e-12);
  double dc[2] = {0, 0};
  P dpc = {2, dc};
  __enzyme_autodiff((void *)moved_pointer, &p, &dpc);
  check("moved_0", dc[0], 0, 1e-12); check("moved_1", dc[1], 3, 1e-12);
  double ta[2] = {0, 1};
  P tp = {2, ta};
  check("moved_fwd", __enzyme_fwddiff((void *)moved_pointer, &p, &tp), 3, 1e-12);

  double x[4] = {0.3, -0.7, 1.1, 0.4}, dx[4] = {0}, h = 1e-6;
  R r = {3, 1.5, x}, dr = {0, 0, dx};
  __enzyme_autodiff((void *)walk, &r, &dr);
  for (int k = 0; k < 4; k++) {
    double keep = x[k];
    x[k] = keep + h; double up = walk(&r);
    x[k] = keep - h; double dn = walk(&r);
    x[k] = keep;
    char label[16]; snprintf(label, sizeof label, "walk_x%d", k);
    check(label, dx[k], (up - dn) / (2 * h), 1e-6);
  }
  R rp = {3, 1.5 + h, x}, rm = {3, 1.5 - h, x};
  check("walk_w", dr.w, (walk(&rp) - walk(&rm)) / (2 * h), 1e-6);
  double tx[4] = {0, 0, 1, 0};
  R tr = {3, 0.5, tx};
  double fwd = __enzyme_fwddiff((void *)walk, &r, &tr);
  double x2[4] = {0.3, -0.7, 1.1 + h, 0.4}, x3[4] = {0.3, -0.7, 1.1 - h, 0.4};
  R r2 = {3, 1.5 + 0.5 * h, x2}, r3 = {3, 1.5 - 0.5 * h, x3};
  check("walk_fwd", fwd, (walk(&r2) - walk(&r3)) / (2 * h), 1e-6);

  double bx[2] = {1.5, -2}, dbx[2] = {0, 0};
  double da_ = __enzyme_autodiff((void *)build, bx, dbx, 0.7);
  check("build_a", da_, bx[1] * bx[0], 1e-12);
  check("build_x0", dbx[0], 0.7 * bx[1], 1e-12); check("build_x1", dbx[1], 0.7 * bx[0], 1e-12);
  IF i1 = {3, 2.0f}, di1 = {0, 0}, ti1 = {0, 1};
  __enzyme_autodiff_f((void *)by_value_if, &i1, &di1);
  check("byval_if_rev", di1.x, 12, 1e-6);
  check("byval_if_fwd", __enzyme_fwddiff_f((void *)by_value_if, &i1, &ti1), 12, 1e-6);
  FF f1 = {2, 3}, df1 = {1, 1}, tf1 = {1, 0};  /* accumulated onto nonzero shadows: no bit-pattern sums */
  __enzyme_autodiff_f((void *)by_value_ff, &f1, &df1);
  check("byval_ff_a", df1.a, 4, 1e-6); check("byval_ff_b", df1.b, 3, 1e-6);
  check("byval_ff_fwd", __enzyme_fwddiff_f((void *)by_value_ff, &f1, &tf1), 3, 1e-6);
  double y[2] = {5, -1}, dy[2] = {0, 0}, ty[2] = {1, 0};
  IWP w1 = {1, 2.0f, y}, dw1 = {0, 0.5f, dy}, tw1 = {0, 0, ty};
  __enzyme_autodiff((void *)by_value_iwp, &w1, &dw1);
  check("byval_p0", dy[0], -2, 1e-12); check("byval_p1", dy[1], 10, 1e-12); check("byval_w", dw1.w, -4.5, 1e-6);
  check("byval_fwd", __enzyme_fwddiff((void *)by_value_iwp, &w1, &tw1), -2, 1e-12);
  double mp[1] = {2}, dmp[1] = {0};
  MA ma = {{1, 2, 3}, mp, 1.5f}, dma = {{0, 0, 0}, dmp, 0.25f};
  __enzyme_autodiff((void *)member_array, &ma, &dma);
  check("marr_v0", dma.v[0], 4, 1e-12); check("marr_v2", dma.v[2], 12, 1e-12);
  check("marr_p", dmp[0], 14, 1e-12); check("marr_w", dma.w, 1.25, 1e-6);
  double nx[2] = {2, 3}, dnx[2] = {0, 0};
  __enzyme_autodiff((void *)named, nx, dnx);
  check("named_0", dnx[0], 3, 1e-12); check("named_1", dnx[1], 2, 1e-12);
  return fails ? 1 : 0;
}
