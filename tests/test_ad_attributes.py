"""Enzyme's source attributes (issue 19): __attribute__((enzyme_inactive)) on functions and globals,
__attribute__((enzyme_function_like("log1p"))) and the registration globals of the same (__enzyme_function_like,
__enzyme_inactive_global_*, __enzyme_inactivenoblockfn_*), __attribute__((enzyme_shadow(s))) on globals; any
other enzyme_* attribute, and registrations pgcc does not implement, are clear errors, never ignored (clang
itself only warns "unknown attribute ... ignored")."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_ad_program, run_pgcc

AD = PROGRAMS / "ad"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_enzyme_attributes(opt, tmp):
    got, rows = run_ad_program(AD / "attributes.c", opt, tmp)
    rows = {label: (g, want) for label, g, want in rows}
    assert got.returncode == 0, rows
    assert len(rows) == 13
    assert abs(rows["log1p_rev"][0] - 1 / 3) < 1e-12  # not 2: the body is not differentiated
    assert rows["inactive_rev"][0] == 4.0             # not 6: scale_of is inactive


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_enzyme_shadow_globals(opt, tmp):
    """__attribute__((enzyme_shadow(s))) (tests/programs/ad/shadow_globals_user.c): the program's global s receives
    the adjoints (accumulated over two calls) and gives the tangents of a scalar and an array global."""
    got, rows = run_ad_program(AD / "shadow_globals_user.c", opt, tmp)
    assert got.returncode == 0, rows
    rows = {label: (g, want) for label, g, want in rows}
    assert set(rows) == {"dx", "dweight", "dcoef0", "dcoef1", "dcoef2", "dweight_twice", "tweight", "tcoef2"}
    assert abs(rows["dweight_twice"][0] - 2 * rows["dweight"][0]) < 1e-12 and abs(rows["dweight"][0]) > 0.1


ERRORS = [
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "__attribute__((enzyme_nofree)) double g(double x) { return x * x; }\n"
     "double d(double x) { return __enzyme_autodiff((void *)g, x); }\n", 2, "attribute 'enzyme_nofree'"),
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "double g(double x) __attribute__((noinline, enzyme_sparse_accumulate));\n"
     "double g(double x) { return x * x; }\n"
     "double d(double x) { return __enzyme_autodiff((void *)g, x); }\n", 2, "attribute 'enzyme_sparse_accumulate'"),
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "double h(double a) __attribute__((enzyme_function_like(\"no_such_fn\")));\n"
     "double h(double a) { return a; }\ndouble g(double x) { return h(x); }\n"
     "double d(double x) { return __enzyme_autodiff((void *)g, x); }\n", 4, "declared like 'no_such_fn'"),
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "double h(double a) __attribute__((enzyme_function_like));\n"
     "double h(double a) { return a; }\ndouble g(double x) { return h(x); }\n"
     "double d(double x) { return __enzyme_autodiff((void *)g, x); }\n", 2, "enzyme_function_like needs"),
    ("void *__enzyme_allocation_like[4] = {0, 0, 0, 0};\n", 1, "custom allocators (__enzyme_allocation_like)"),
    # enzyme_shadow: a global whose address is taken (raw memory: no shadow to substitute), an unknown shadow
    ("extern double __enzyme_autodiff(void *, ...);\ndouble w_shadow;\n"
     "__attribute__((enzyme_shadow(w_shadow))) double w = 1.5;\ndouble *wp = &w;\n"
     "double f(double x) { return *wp * x + w; }\ndouble g(double x) { return __enzyme_autodiff((void *)f, x); }\n",
     3, "enzyme_shadow(w_shadow))) on 'w'"),
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "__attribute__((enzyme_shadow(nope))) double w = 1.5;\n"
     "double f(double x) { return w * x; }\ndouble g(double x) { return __enzyme_autodiff((void *)f, x); }\n",
     2, "enzyme_shadow(nope): no global variable 'nope'"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unknown_enzyme_attributes_are_errors(src, line, msg, tmp):
    p = tmp / "e.c"
    p.write_text(src)
    r = run_pgcc([p, "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr, r.stderr
    assert f"e.c:{line}:" in r.stderr and "error:" in r.stderr and msg in r.stderr, r.stderr
