"""Driver behaviour build systems rely on: no -O means -O0 (device code of .cu files: -O2, as nvcc optimizes
it), and gcc flags that change a program's meaning are honoured or rejected, never dropped."""

from __future__ import annotations

import subprocess

import pytest

from conftest import pgcc_cmd, run_exe, run_pgcc
from polygeist_py.driver import device_opt_level, parse_args


def test_default_optimization_levels():
    o = parse_args(["x.c"])
    assert (o.opt_level, device_opt_level(o)) == (0, 2)
    o = parse_args(["x.cu", "-O3"])
    assert (o.opt_level, device_opt_level(o)) == (3, 3)


def test_unsigned_char_is_honoured(tmp):
    src = tmp / "c.c"
    src.write_text('#include <stdio.h>\nint main(void) { char c = (char)200; printf("%d %d\\n", c, c > 0); return 0; }\n')
    for flag, want in (("-funsigned-char", "200 1\n"), ("-fsigned-char", "-56 0\n")):
        ref = subprocess.run(["gcc", flag, str(src), "-o", str(tmp / "ref")], capture_output=True, text=True)
        assert ref.returncode == 0 and run_exe(tmp / "ref").stdout == want
        r = run_pgcc([src, flag, "-O2", "-o", tmp / "app"])
        assert r.returncode == 0, r.stderr
        assert run_exe(tmp / "app").stdout == want


@pytest.mark.parametrize("flag", ["-fsanitize=address", "-ftrapv", "-fshort-enums", "-fpack-struct"])
def test_meaning_changing_flags_are_rejected(tmp, flag):
    src = tmp / "m.c"
    src.write_text("int main(void) { return 0; }\n")
    r = run_pgcc([src, flag, "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"error: {flag} is not supported by pgcc" in r.stderr


def test_guarded_float_division_is_not_speculated(tmp):
    """A program that enables FE_DIVBYZERO traps runs its guarded divisions only when the guard holds (pgcc's own
    code; at -O1 and above LLVM may speculate, as clang's -fno-trapping-math allows: hence the warning)."""
    from conftest import PROGRAMS, build_gcc, build_pgcc
    src = PROGRAMS / "c" / "fp_traps_guarded.c"
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-lm",)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-O0", "-lm")))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
    r = run_pgcc([src, "-ftrapping-math", "-c", "-o", tmp / "m.o"])
    assert r.returncode == 0 and "warning: -ftrapping-math is not honoured" in r.stderr


def test_output_to_stdout(tmp):
    """`-S -o -` prints the assembly and `-c -o /dev/stdout` writes the object to standard output (llc's own
    standard output is pgcc's pipe: both were lost, and the object one was an internal error)."""
    src = tmp / "s.c"
    src.write_text("int answer(void) { return 42; }\n")
    asm = run_pgcc([src, "-S", "-o", "-"])
    assert asm.returncode == 0 and "answer:" in asm.stdout
    with open(tmp / "s.o", "wb") as out:
        r = subprocess.run(pgcc_cmd() + [str(src), "-c", "-o", "/dev/stdout"], stdout=out, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr
    nm = subprocess.run(["nm", str(tmp / "s.o")], capture_output=True, text=True)
    assert nm.returncode == 0 and "T answer" in nm.stdout
