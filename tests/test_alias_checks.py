"""The polyhedral stage schedules arrays that may overlap (pointer parameters, a global and a pointer) only
under a run-time check that the ranges they touch are disjoint (affine/alias.py, affine/alias_checks.py); the
original loops run otherwise. Before, `shift_add(n, a, a + 1)` and friends gave wrong results at -O3."""

import re

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

SRC = PROGRAMS / "c" / "overlapping_arrays.c"
VERSIONED = ("shift_add", "smooth_rows", "accumulate", "transpose_add", "solve_lower")


@pytest.mark.parametrize("threads", ["1", "2"])
def test_overlapping_calls_match_gcc(tmp, threads):
    ref = run_exe(build_gcc(SRC, tmp / "ref"))
    assert ref.returncode == 0 and ref.stdout.count("\n") == 6
    got = run_exe(build_pgcc(SRC, tmp / "app", extra=("-O3",)), threads=threads)
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_only_arrays_that_may_overlap_are_checked(tmp):
    r = run_pgcc([SRC, "-O3", "-c", "-o", tmp / "a.o", "-Rpass=polyhedral"])
    assert r.returncode == 0, r.stderr
    checked = set(re.findall(r"SCoP (\w+)\.scop0 [^\n]*versioned on a run-time check", r.stderr))
    assert checked == set(VERSIONED), r.stderr
    # restrict parameters, and fill's single array, need no check
    assert re.search(r"SCoP scale_restrict\.scop0 modelled and rescheduled \[", r.stderr), r.stderr


def test_check_guards_the_scheduled_code(tmp):
    """The check compares the byte ranges [lo, hi) of the two arrays; the original loops are its else-branch."""
    r = run_pgcc([SRC, "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("func.func @shift_add"):]
    body = body[:body.index("func.func", 10)]
    assert body.count("arith.cmpi ule") == 2 and "memref.extract_aligned_pointer_as_index" in body, body
    guarded = body[body.index("scf.if"):]
    assert guarded.index("affine.parallel") < guarded.index("} else {") < guarded.index("affine.for"), guarded
