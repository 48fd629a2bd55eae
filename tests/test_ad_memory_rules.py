"""Issue 19 items 3 and 4: C programs written for Enzyme's C API (tests/programs/enzyme_c/), each a `main` that
prints "label derivative reference" lines and exits 1 when a derivative is outside its tolerance: math.h
functions without a single arithmetic op (frexp, ldexp, modf, fmod, remainder, copysign, fmin/fmax, hypot, cbrt,
erf/erfc, tgamma, lgamma; float and __builtin_ forms), memory allocated the ways C allocates it (calloc,
aligned_alloc, posix_memalign, function pointers, __enzyme_allocation_like, realloc), pointers
to differentiated memory kept in structs, pointer arrays, malloc'd records and VLAs, doubles copied through
integers, vector forward mode with pointer arguments (enzyme_width with enzyme_dupv / enzyme_dup). Built at
-O0 and -O2. The unsupported forms are clear errors naming the construct."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_ad_program, compile_error, run_exe

ENZYME_C = PROGRAMS / "enzyme_c"
PROGRAMS_AD = sorted(p.name for p in ENZYME_C.glob("*.c") if not p.name.startswith("plain_"))


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("name", PROGRAMS_AD)
def test_derivatives_within_tolerance(name, opt, tmp):
    got, rows = run_ad_program(ENZYME_C / name, opt, tmp)
    bad = [row for row in rows if abs(row[1] - row[2]) > 1e-5 * (1 + abs(row[2]))]
    assert got.returncode == 0, bad
    assert len(rows) >= 10
    # not a program of zeros: most derivatives checked are nonzero
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) >= len(rows) * 3 // 4


def test_plain_c_modf_and_vla_sizeof_match_gcc(tmp):
    """modf is lowered in place for AD; non-AD code must keep C's results (signed zeros, infinities, NaN), and
    sizeof of a VLA is its run-time size."""
    src = ENZYME_C / "plain_modf_vla.c"
    gcc = build_gcc(src, tmp / "g", ["-lm"])
    ours = build_pgcc(src, tmp / "p", ["-lm"])
    want, got = run_exe(gcc), run_exe(ours)
    assert got.returncode == want.returncode == 0
    assert got.stdout == want.stdout
    assert "sizes" in got.stdout


PREFIX = "#include <stdlib.h>\n#include <string.h>\nextern double __enzyme_autodiff(void *, ...);\n"
ERRORS = [
    # reverse mode through realloc of records mixing a double with a pointer (arrays of pointers, ints and
    # floats: tests/programs/ad/idioms/realloc_elements.c)
    ("typedef struct { double w; const double *p; } rec;\n"
     "double f(const double *x, int n) { rec *r = malloc(sizeof(rec)); r[0].w = x[0]; r[0].p = x;\n"
     "  r = realloc(r, n * sizeof(rec)); for (int i = 1; i < n; i++) { r[i].w = x[i]; r[i].p = x + i; }\n"
     "  double s = 0; for (int i = 0; i < n; i++) s += r[i].w * *r[i].p; free(r); return s; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx, 3); }\n", 6,
     "reverse mode through realloc of records that mix floating-point fields with pointers or integers"),
    # forward mode through realloc of memory the caller allocated: its shadow's size is unknown
    ("double f(double *x, int n) { x = realloc(x, 2 * n * sizeof(double)); x[n] = x[0] * x[0]; return x[n]; }\n"
     "extern double __enzyme_fwddiff(void *, ...);\n"
     "double g(double *x, double *dx) { return __enzyme_fwddiff((void *)f, x, dx, 3); }\n", 4,
     "realloc of differentiated memory that this function did not allocate"),
    # memory from a function pointer that this file never sets (one set to functions of the file is dispatched
    # over them: tests/test_ad_gridstride.py)
    ("extern void *(*get)(size_t);\n"
     "double f(double *x) { double *t = get(8); t[0] = x[0] * x[0];\n"
     "  double r = t[0]; free(t); return r; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }\n", 5,
     "a call through a function pointer pgcc cannot resolve"),
    # a buffer swapped with a global array, which has no shadow (malloc'd and local buffers: joined_pointers.c)
    ("double work[16];\n"
     "double f(double *x, int n) { double *a = malloc(8 * n), *b = work; for (int i = 0; i < n; i++)\n"
     "  a[i] = x[i]; for (int t = 0; t < 3; t++) { for (int i = 0; i < n; i++) b[i] = a[i] * a[i];\n"
     "  double *s = a; a = b; b = s; } double r = a[0]; free(a == work ? b : a); return r; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx, 3); }\n", 6,
     "joins a differentiated pointer with one that has no shadow"),
    # a VLA of structs with a run-time inner dimension
    ("typedef struct { double v; } S;\nint h(int n) { S grid[n][n]; grid[0][0].v = 1; return (int)grid[0][0].v; }\n",
     5, "run-time inner dimension"),
    # the sign bit flipped through an integer copy of a double
    ("double f(double x) { unsigned long long u; memcpy(&u, &x, 8); u ^= 1ull << 63; double y;\n"
     "  memcpy(&y, &u, 8); return y * x; }\n"
     "double g(double x) { return __enzyme_autodiff((void *)f, x); }\n", 4, "integer arithmetic on the bits"),
    # the same through a union
    ("typedef union { double d; unsigned long long u; } U;\n"
     "double f(double x) { U v; v.d = x; v.u ^= 1ull << 63; return v.d * x; }\n"
     "double g(double x) { return __enzyme_autodiff((void *)f, x); }\n", 5, "integer arithmetic on the bits"),
    # memory from an allocator that is not declared allocation-like, without a body
    ("void *my_alloc(size_t); void my_free(void *);\n"
     "double f(double *x) { double *t = my_alloc(8); t[0] = x[0] * x[0]; double r = t[0]; my_free(t); return r; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }\n", 5, "my_alloc"),
    # an allocation_like global naming an argument the allocator does not have
    ("void *my_alloc(size_t n) { return malloc(n); } void my_free(void *p) { free(p); }\n"
     "void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)2, (void *)\"-1\", (void *)my_free};\n",
     5, "names argument 2"),
    # sizeof of a variable-length array type written as a type (only a local VLA variable is supported)
    ("double f(double x) { double t[x > 0 ? 2 : 3]; return sizeof(double[x > 1 ? 2 : 4]) * x; }\n",
     4, "sizeof of a variable-length type"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unsupported_memory_forms_are_clear_errors(src, line, msg, tmp):
    err = compile_error(tmp / "e.c", PREFIX + src, flags=("-c",))
    assert f"e.c:{line}:" in err and msg in err, err
