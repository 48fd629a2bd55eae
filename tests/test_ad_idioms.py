"""C idioms of Enzyme's integration tests (tests/programs/ad/idioms/), each a `main` that prints "label derivative
reference" lines and aborts (APPROX_EQ) on a derivative outside tolerance: structs of pointers, memcpy/memmove of
active data, pointer-to-pointer arrays, loops with early exits, recursion, global arrays holding active values
(shadow globals), pointers round-tripped through integers, enzyme_dupnoneed, __enzyme_fwddiff with several
duplicated arguments, enzyme_out mixed with returns, float and double. Built at -O0 and -O2. The forms pgcc does
not differentiate are clear errors naming the construct (never a silent wrong derivative)."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_ad_program, run_pgcc

IDIOMS = PROGRAMS / "ad" / "idioms"
NAMES = sorted(p.name for p in IDIOMS.glob("*.c"))


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("name", NAMES)
def test_idiom_derivatives(name, opt, tmp):
    got, rows = run_ad_program(IDIOMS / name, opt, tmp)
    assert got.returncode == 0, (got.stderr, rows[-3:])
    assert len(rows) >= 10
    assert all(abs(g - w) <= 1e-5 * (1 + abs(w)) for _, g, w in rows)
    # most derivatives checked are nonzero (a program of zeros would prove nothing)
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) >= len(rows) * 2 // 3


PREFIX = "#include <stdint.h>\nextern double __enzyme_autodiff(void *, ...);\nextern double __enzyme_fwddiff(void *, ...);\n"
ERRORS = [
    # an address kept as an integer and carried by a loop: was a silent zero derivative (both modes)
    ("double walk(double *x) { uintptr_t a = (uintptr_t)x; double s = 0;\n"
     "  for (int i = 0; i < 4; i++) { s += *(double *)a * *(double *)a; a += sizeof(double); } return s; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)walk, x, dx); }\n", 5,
     "kept as an integer ((uintptr_t)p) and carried through a loop or branch"),
    ("double walk(double *x) { uintptr_t a = (uintptr_t)x; double s = 0;\n"
     "  for (int i = 0; i < 4; i++) { s += *(double *)a * *(double *)a; a += sizeof(double); } return s; }\n"
     "double g(double *x, double *dx) { return __enzyme_fwddiff((void *)walk, x, dx); }\n", 5,
     "kept as an integer ((uintptr_t)p) and carried through a loop or branch"),
    # the address of memory without a shadow stored as an integer next to differentiated values
    ("extern int enzyme_const;\ntypedef struct { uintptr_t a; double *p; } h;\n"
     "double f(double *x, double *y) { h s = {(uintptr_t)y, x}; return *(double *)s.a * s.p[0]; }\n"
     "double g(double *x, double *dx, double *y) { return __enzyme_fwddiff((void *)f, x, dx, enzyme_const, y); }\n",
     6, "storing the address of memory that has no shadow"),
    # rows malloc'd in a loop, kept in a table, then swapped in the table after being read through it (the
    # table alone: tests/programs/enzyme_c/api_forms.c; forward mode: control_memory.c)
    ("#include <stdlib.h>\ndouble f(double *x) { double **r = malloc(2 * sizeof(double *));\n"
     "  for (int i = 0; i < 2; i++) { r[i] = malloc(8); r[i][0] = x[i] * x[i]; }\n"
     "  double *t = r[0]; r[0] = r[1]; r[1] = t;\n"
     "  double s = r[0][0] * r[1][0]; free(r[0]); free(r[1]); free(r); return s; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }\n", 6,
     "reverse mode through a pointer read from memory that may be written again later"),
    # a differentiated pointer kept in a global pointer by a helper, then read back: was a silent zero gradient
    # in reverse mode (forward mode said so)
    ("static double *keep;\nstatic void hold(double *p) { keep = p; }\n"
     "double f(double *x) { hold(x); return keep[0] * keep[1]; }\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }\n", 5,
     "storing an active value into memory that has no shadow"),
    # an indirect call through a pointer that may hold any function
    ("double (*pick)(double);\ndouble f(double x) { return pick(x) * x; }\n"
     "double g(double x) { return __enzyme_autodiff((void *)f, x); }\n", 5,
     "a call through a function pointer that is not one known function"),
]


@pytest.mark.parametrize("src,line,message", ERRORS)
def test_unsupported_idioms_are_errors(src, line, message, tmp):
    path = tmp / "e.c"
    path.write_text(PREFIX + src)
    r = run_pgcc([path, "-O0", "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal" not in r.stderr
    assert f"e.c:{line}:" in r.stderr and message in r.stderr, r.stderr
