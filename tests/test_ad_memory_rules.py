"""Issue 19 items 3 and 4: C programs written for Enzyme's C API (tests/programs/enzyme_c/), each a `main` that
prints "label derivative reference" lines and exits 1 when a derivative is outside its tolerance: math.h
functions without a single arithmetic op (frexp, ldexp, modf, fmod, remainder, copysign, fmin/fmax, hypot, cbrt,
erf/erfc, tgamma, lgamma; float and __builtin_ forms), memory allocated the ways C allocates it. Built at -O0
and -O2. The unsupported forms are clear errors naming the construct."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_ad_program, run_pgcc

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
