"""Custom derivative rules with Enzyme's calling convention (issue 19): a shadow after every differentiated
pointer argument (outputs included), the augmented forward function called once per call in the forward sweep
instead of the function, its tape handed to the reverse rule, scalar rules returning tangents / adjoints (a struct
for several). tests/programs/ad/custom_conventions.c counts the calls of each function and checks the
derivatives; it exits 1 when one is off."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_ad_program, run_pgcc

AD = PROGRAMS / "ad"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_enzyme_calling_convention_of_custom_rules(opt, tmp):
    got, rows = run_ad_program(AD / "custom_conventions.c", opt, tmp)
    rows = {label: (g, want) for label, g, want in rows}
    assert got.returncode == 0, rows
    # the forward rule of a function returning through an out-pointer gave 0 before (no shadow for `dest`)
    assert rows["cube_fwd"][0] == 12.0
    # augmented forward once, reverse rule once, the function itself never (primal*100 + aug*10 + rev)
    assert rows["cube_rev_calls"][0] == 11 and rows["cubes_calls"][0] == 33
    assert len(rows) == 14


def test_custom_rule_of_the_wrong_type_is_a_clear_error(tmp):
    src = tmp / "e.c"
    src.write_text(
        "extern double __enzyme_fwddiff(void *, ...);\n"
        "void f(const double *s, double *d) { *d = *s * 2; }\n"
        "void f_fwd(const double *s, const double *ds, double *dd) { *dd = 2 * *ds; }\n"
        "void *__enzyme_register_derivative_f[2] = {(void *)f, (void *)f_fwd};\n"
        "double g(double x) { double y; f(&x, &y); return y; }\n"
        "double h(double x) { return __enzyme_fwddiff((void *)g, x, 1.0); }\n")
    r = run_pgcc([src, "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "e.c:5:" in r.stderr and "custom derivative 'f_fwd'" in r.stderr, r.stderr
