"""Large initialized arrays compile in seconds (a loop nest zeroes a local, a global's attribute is a splat or
numpy-backed) and give gcc's values; found by the fuzzer as hangs (`char s[2147483647] = "ACG"`)."""

import time

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc


def test_large_arrays_match_gcc(tmp):
    src = PROGRAMS / "large_initializers.c"
    t0 = time.monotonic()
    build_pgcc(src, tmp / "p")
    assert time.monotonic() - t0 < 60
    got, ref = run_exe(tmp / "p"), run_exe(build_gcc(src, tmp / "g"))
    assert got.returncode == 0 and got.stdout == ref.stdout == "29 8.500 -171 0.500 532 hello 0\n"


def test_huge_global_with_values_is_an_error(tmp):
    (tmp / "h.c").write_text('char names[2147483647] = "ACG";\nint main(void) { return names[1]; }\n')
    r = run_pgcc([tmp / "h.c", "-c", "-o", tmp / "h.o"], timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "h.c:1:6: error: unsupported construct: initial values in a global array of 2147483647 elements" in r.stderr


def test_zero_length_global_arrays(tmp):
    """Found by the fuzzer: `char names[0] = "ACG"` (GNU zero-length array) failed building its attribute."""
    (tmp / "z.c").write_text('int z[0];\nchar e[0] = "";\nint main(void) { return sizeof z + 3; }\n')
    r = run_pgcc(["-w", tmp / "z.c", "-o", tmp / "z"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "z").returncode == 3
