"""Issue 18: what real C projects and Rodinia 3.1's OpenMP C programs showed (benchmarks/realworld.py, and the
Rodinia programs built as shipped with `pgcc -fopenmp`): their OpenMP idioms give gcc -fopenmp's output at 1 and
2 threads; many blocks of cleanup-guarded variables (tinycc's tests2/101_cleanup) compile to gcc's program
(the compile time itself is measured by benchmarks/compile_scaling.py); long double literals whose suffix a
macro pastes on (m4's gnulib tests: test-frexpl.c) have gcc's values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import compile_scaling as gen  # noqa: E402


def gcc_openmp(src, out):
    r = subprocess.run(["gcc", "-fopenmp", "-O0", "-ffp-contract=off", "-std=gnu11", "-w", str(src), "-o", str(out),
                        "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_rodinia_openmp_idioms_match_gcc(opt, tmp):
    src = PROGRAMS / "openmp" / "rodinia_idioms.c"
    ref = gcc_openmp(src, tmp / "ref")
    exe = build_pgcc(src, tmp / "app", extra=("-fopenmp", opt, "-w"))
    for n in (1, 2):
        got, want = run_exe(exe, threads=n), run_exe(ref, threads=n)
        assert want.returncode == 0 and want.stdout.count("\n") > 10
        assert (got.stdout, got.returncode) == (want.stdout, want.returncode), f"OMP_NUM_THREADS={n}"


def test_many_cleanup_guarded_blocks_match_gcc(tmp):
    src = tmp / "guards.c"
    src.write_text(gen.cleanup_guards(400))
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-O2",)))
    assert ref.returncode == 0 and ref.stdout.strip()
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_cleanup_guards_match_gcc(opt, tmp):
    src = PROGRAMS / "c" / "cleanup_guards.c"
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w")))
    assert ref.returncode == 0 and "log 1 2 3 4" in ref.stdout
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_guard_first_in_its_block_has_no_flag(tmp):
    """A cleanup variable declared first in a block that nothing jumps into runs its handler at the block's end
    unconditionally: no per-guard byte (65,536 of them made opt's SROA and IPSCCP superlinear)."""
    src = tmp / "guards.c"
    src.write_text(gen.cleanup_guards(6))
    r = run_pgcc(["-S", "--emit=mlir", src, "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("call @bump(") == 6
    assert not [line for line in r.stdout.splitlines() if "llvm.alloca" in line and "x i8" in line]


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_pasted_long_double_literals_match_gcc(opt, tmp):
    src = PROGRAMS / "c" / "pasted_long_double_literals.c"
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w")))
    assert ref.returncode == 0 and ref.stdout.count("\n") == 8
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_pasted_literal_too_long_to_check_is_an_error(tmp):
    """An argument of more digits than a double tells apart could hide digits the macro pastes on besides the
    suffix: a clear error, never a guessed value."""
    src = tmp / "long.c"
    src.write_text("#define L_(x) x##L\nlong double f(void) { return L_(3.14159265358979323846264338327950288); }\n")
    r = run_pgcc(["-c", src, "-o", tmp / "long.o"])
    assert r.returncode == 1 and "error: unsupported construct: long double literal" in r.stderr
    assert "Traceback" not in r.stderr
