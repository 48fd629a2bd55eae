"""Issue 19: forms found by running Enzyme's own C integration tests through pgcc (measured outside the
repository). The programs that must differentiate correctly are tests/programs/enzyme_c/recursive_records.c,
float_bits.c, api_forms.c and global_shadows.c (run by test_ad_memory_rules.py at -O0 and -O2); here, the forms that stay
unsupported are clear errors naming the construct (never a wrong derivative, an internal error or a link
error)."""

from __future__ import annotations

import pytest

from conftest import compile_error, run_exe, run_pgcc

PREFIX = ("#include <stdlib.h>\nextern double __enzyme_autodiff(void *, ...);\n"
          "extern void __enzyme_augmentfwd(void *, ...);\nextern void __enzyme_reverse(void *, ...);\n"
          "extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;\n")
ERRORS = [
    # Enzyme's shadows of globals beyond one context of width 1 (tests/programs/enzyme_c/global_shadows.c):
    # vector contexts and lanes, a pointer stored into a queried global where pgcc cannot tell which shadow
    # pointer follows it, an address that is not into a global; and fixed-point iteration
    # (ForwardMode/fixed_point.c)
    ("extern void *__enzyme_context(int);\nvoid *g(void) { return __enzyme_context(2); }\n", 7,
     "unsupported construct: Enzyme's shadow contexts of a width other than the constant 1"),
    ("extern void *__enzyme_shadow(void *, int, int);\ndouble w[2];\n"
     "void *g(void) { return __enzyme_shadow(&w[1], 1, 1); }\n", 8, "a lane other than 0 in __enzyme_shadow"),
    ("extern void *__enzyme_shadow(void *, int, int);\n"
     "void *g(double *p) { return __enzyme_shadow(p, 1, 0); }\n", 7,
     "__enzyme_shadow needs the address of a global variable"),
    # a pointer stored into a global with a queried shadow at a position that is not constant
    ("extern void *__enzyme_shadow(void *, int, int);\ndouble *a[4];\n"
     "double f(double x) { return a[0][0] * x; }\nvoid init(int k) { a[k] = malloc(8); a[k][0] = 2; }\n"
     "double g(void) { double **da = __enzyme_shadow(&a, 1, 0); return __enzyme_autodiff((void *)f, 1.0); }\n",
     9, "storing a pointer into global 'a' (at a position pgcc cannot tell)"),
    ("extern void __enzyme_fixed_point(void *, ...);\nint step(long i, double *u) { u[0] *= 0.5; return u[0] > 1; }\n"
     "void g(double *u) { __enzyme_fixed_point((void *)step, u); }\n", 8,
     "unsupported construct: Enzyme's fixed-point iteration (__enzyme_fixed_point)"),
    # a caller-allocated tape smaller than pgcc's tape (Enzyme's allocatedtape_err.c says "need 8 bytes")
    ("void f(double *x) { x[0] = x[0] * x[0]; }\n"
     "void r(double *x, double *dx, void *t) { __enzyme_reverse((void *)f, x, dx, enzyme_allocated, 4,\n"
     "  enzyme_tape, t); }\n", 7, "the tape needs 8 bytes, enzyme_allocated gives 4"),
    # the size of a caller-allocated tape without the place of the tape
    ("void f(double *x) { x[0] = x[0] * x[0]; }\n"
     "void a(double *x, double *dx) { __enzyme_augmentfwd((void *)f, x, dx, enzyme_allocated, 64); }\n", 7,
     "enzyme_allocated without enzyme_tape"),
    # tape markers outside split mode
    ("double f(double *x) { return x[0] * x[0]; }\n"
     "double g(double *x, double *dx, void *t) { return __enzyme_autodiff((void *)f, x, dx, enzyme_tape, t); }\n",
     7, "enzyme_tape outside __enzyme_augmentfwd / __enzyme_reverse"),
    # vector forward mode on a function of a struct parameter
    ("typedef struct { double a, b; } pair;\ndouble f(pair p) { return p.a * p.b; }\ntypedef struct { double d[2]; } t2;\n"
     "extern t2 __enzyme_fwddiff_t2(void *, ...); extern int enzyme_width;\n"
     "t2 g(pair p) { return __enzyme_fwddiff_t2((void *)f, enzyme_width, 2, p, p, p); }\n",
     10, "differentiating 'f' with a parameter of type 'pair'"),
    # vector forward mode through a call kept out of line (recursion: its derivative would run the primal again
    # for each direction)
    ("double p(double *x, int n) { return n == 0 ? 1 : x[0] * p(x + 1, n - 1); }\n"
     "typedef struct { double d[2]; } t2;\nextern t2 __enzyme_fwddiff_t2(void *, ...); extern int enzyme_width;\n"
     "t2 g(double *x, double *a, double *b) { return __enzyme_fwddiff_t2((void *)p, enzyme_width, 2, x, a, b, 3); }\n",
     6, "Enzyme's vector forward mode (enzyme_width) through a call of 'p'"),
    # vector reverse mode
    ("void f(double *x, double *y) { y[0] = x[0] * x[1]; }\nextern int enzyme_width, enzyme_dupv;\n"
     "void g(double *x, double *dx, double *y, double *dy) {\n"
     "  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dupv, 16, x, dx, enzyme_dupv, 8, y, dy); }\n",
     9, "unsupported construct: Enzyme's vector reverse mode (enzyme_width in __enzyme_autodiff)"),
    # vector forward mode on a function that updates a global (its shadow global has width 1: the directions
    # would share it)
    ("double state = 0.5;\ndouble f(double x) { state = state * x; return state; }\n"
     "typedef struct { double d[2]; } t2;\nextern t2 __enzyme_fwddiff_t2(void *, ...); extern int enzyme_width;\n"
     "t2 g(double x) { return __enzyme_fwddiff_t2((void *)f, enzyme_width, 2, x, 1.0, 2.0); }\n", 10,
     "unsupported construct: Enzyme's vector forward mode (enzyme_width) through global 'state', which holds "
     "differentiated values"),
    # ... and on a function reading a global whose (width-1) shadow the program queries: Enzyme's shadows per
    # direction are other ones (was every direction seeded by the one shadow)
    ("extern void *__enzyme_shadow(void *, int, int);\ndouble g = 2.0;\ndouble f(double x) { return g * x; }\n"
     "typedef struct { double d[2]; } t2;\nextern t2 __enzyme_fwddiff_t2(void *, ...); extern int enzyme_width;\n"
     "t2 h(double x) { double *dg = __enzyme_shadow(&g, 1, 0); *dg = 1;\n"
     "  return __enzyme_fwddiff_t2((void *)f, enzyme_width, 2, x, 1.0, 2.0); }\n", 12,
     "on 'f', which reads global 'g' whose shadow the program sets"),
    # a recursive call whose record argument holds a differentiated pointer the caller may change after the call
    # (its taped reverse would reload that pointer)
    ("typedef struct { int lo, hi; const double *v; } span;\n"
     "double sum(const span *s) { if (s->hi - s->lo < 2) return s->v[s->lo] * s->v[s->lo];\n"
     "  span *h = malloc(sizeof(span)); *h = *s; h->lo = s->lo + 1; double r = sum(h);\n"
     "  h->hi = 0; free(h); return r + s->v[s->lo]; }\n"
     "double g(span *s, span *ds) { return __enzyme_autodiff((void *)sum, s, ds); }\n", 9,
     "reverse mode through a recursive call whose function reads a differentiated pointer from memory its "
     "caller may change after the call"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unsupported_enzyme_forms_are_clear_errors(src, line, msg, tmp):
    err = compile_error(tmp / "e.c", PREFIX + src, flags=("-c",))
    assert f"e.c:{line}:" in err and msg in err, err


def test_firstprivate_array_in_reverse_mode_is_a_clear_error(tmp):
    """A firstprivate array updated by each thread: its copies are not run as the team would
    (ad/openmp_teams.py handles scalars: tests/test_ad_openmp_regions.py), so reverse mode reports it."""
    err = compile_error(tmp / "e.c", PREFIX + "void touch(double *p) { *p *= 0.5; }\n"
                        "void f(double *a, double in, int n) {\n  double w[2] = {in, in};\n"
                        "#pragma omp parallel for firstprivate(w)\n"
                        "  for (int i = 0; i < n; i++) { a[i] = w[i % 2]; w[i % 2] = 0; touch(&w[0]); }\n}\n"
                        "double g(double *a, double *da, int n) { return __enzyme_autodiff((void *)f, a, da, 1.0, n); }"
                        "\n", flags=("-fopenmp", "-c"))
    assert "e.c:10:" in err and "OpenMP firstprivate or lastprivate variable" in err, err


def test_second_shadow_context_aborts(tmp):
    """pgcc keeps one shadow per global: a program that makes a second context (here one per loop trip) stops
    with a message instead of sharing the first one's shadows."""
    src = tmp / "ctx.c"
    src.write_text("extern void *__enzyme_context(int);\nextern void *__enzyme_shadow(void *, void *, int);\n"
                   "extern double __enzyme_autodiff(double (*)(double), ...);\nextern int enzyme_context;\n"
                   "double w = 2;\ndouble f(double x) { return w * x; }\n"
                   "int main(void) { double s = 0; for (int i = 0; i < 2; i++) { void *c = __enzyme_context(1);\n"
                   "  double *dw = __enzyme_shadow(c, &w, 0); s += __enzyme_autodiff(f, enzyme_context, c, 1.0) + *dw; }\n"
                   "  return s != 4; }\n")
    r = run_pgcc([src, "-o", tmp / "ctx"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "ctx")
    assert got.returncode != 0 and "__enzyme_context ran a second time" in got.stderr, (got.returncode, got.stderr)


def test_global_pointer_stored_without_its_shadow_stops(tmp):
    """A pointer stored into a global whose shadow the program queried, without setting the shadow after it
    (tests/programs/enzyme_c/global_pointer_shadows.c run with an argument): the derivative called next stops with
    a message naming the global instead of reading the shadow of the memory the global pointed to before."""
    from conftest import PROGRAMS
    r = run_pgcc([PROGRAMS / "enzyme_c" / "global_pointer_shadows.c", "-O2", "-o", tmp / "app", "-lm"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app", args=["stale"])
    assert got.returncode != 0 and "the shadow of global 'weights' (byte 0) was not set after a pointer was " \
        "stored there" in got.stderr, (got.returncode, got.stderr)
