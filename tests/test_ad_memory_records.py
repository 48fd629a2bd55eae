"""AD of values reached through memory (issue 19): struct fields behind pointers, struct copies (assignment and
memcpy), pointers stored into memory and loaded back, recursion through a struct copy carrying an active pointer,
structs passed by value (moved by the C ABI in integer and SSE pieces).
Each program prints "label derivative reference" and exits 1 when a derivative is outside tolerance; it is built
at -O0 and -O2. What pgcc cannot differentiate there must be a clear error naming the construct."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_ad_program, run_pgcc

AD = PROGRAMS / "ad"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_struct_memory_derivatives(opt, tmp):
    got, rows = run_ad_program(AD / "struct_memory.c", opt, tmp)
    assert got.returncode == 0, [row for row in rows if abs(row[1] - row[2]) > 1e-6 * (1 + abs(row[2]))]
    labels = [row[0] for row in rows]
    # the silent zeros of issue 19: recursion through a struct copy, float fields behind a struct pointer
    assert dict((row[0], row[1]) for row in rows)["rec_rev"] == 1.0
    assert {"rec_rev", "rec_fwd", "field_x", "copy_x", "memcpy_0", "table_0", "moved_1", "walk_x0", "walk_w",
            "build_a", "byval_if_rev", "byval_ff_a", "byval_p0", "byval_w", "byval_fwd", "marr_v0", "marr_p", "named_0"} <= set(labels)
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) >= len(rows) - 2


ERRORS = [
    # a pointer read back from memory that is overwritten later: the reverse sweep would see the later shadow
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "double f(double *x, double *y) { double *t[1]; t[0] = x; double a = t[0][0]; t[0] = y; return a * t[0][0]; }\n"
     "void g(double *x, double *dx, double *y, double *dy) { __enzyme_autodiff((void *)f, x, dx, y, dy); }\n",
     2, "pointer read from memory that may be written again later"),
    # a struct copy whose fields are only seen through a variable index (an array of structs)
    ("typedef struct { double v; double *p; } S;\nextern double __enzyme_autodiff(void *, ...);\n"
     "double f(S *a, int i) { S t = a[i]; return t.v * t.p[0]; }\n"
     "void g(S *a, S *da) { __enzyme_autodiff((void *)f, a, da, 1); }\n", 3, "fields pgcc cannot tell apart"),
    # a struct copy handed to a function without a body
    ("typedef struct { double v; double *p; } S;\nextern double __enzyme_autodiff(void *, ...);\n"
     "extern void ext(S *);\ndouble f(S *a) { S t = *a; ext(&t); return t.v * t.p[0]; }\n"
     "void g(S *a, S *da) { __enzyme_autodiff((void *)f, a, da); }\n", 4, "'ext', whose body is not in this file"),
    # a linked list whose walk starts at a global record (no shadow) or at a list built across iterations
    # (lists alone: tests/programs/enzyme_c/joined_pointers.c)
    ("#include <stdlib.h>\ntypedef struct n { double v; double *p; struct n *next; } N;\n"
     "extern double __enzyme_autodiff(void *, ...);\nN sentinel;\n"
     "double f(double *x, int n) { N *h = &sentinel; for (int i = 0; i < n; i++) { N *s = malloc(sizeof(N));\n"
     "  s->p = x + i; s->v = x[i]; s->next = h; h = s; } double r = 0; while (h != &sentinel) { N *nx = h->next;\n"
     "  r += h->v * h->p[0]; free(h); h = nx; } return r; }\nvoid g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx, 3); }\n", 5,
     "joins a differentiated pointer with one that has no shadow"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unhandled_memory_forms_are_clear_errors(src, line, msg, tmp):
    p = tmp / "e.c"
    p.write_text(src)
    r = run_pgcc([p, "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr, r.stderr
    assert f"e.c:{line}:" in r.stderr and "error:" in r.stderr and msg in r.stderr, r.stderr
