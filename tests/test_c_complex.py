"""C99 complex numbers (`double _Complex`, `float _Complex`), differential against gcc -O0 at pgcc -O0 and -O2:
numerical programs (FFT, RLC impedance, quadratic roots, Julia set), complex objects (heap and 2-D arrays,
struct members, `__real__`/`__imag__` lvalues, globals with constant initializers), varargs, libm's complex
functions, Annex G products and quotients at infinities, NaNs and extreme magnitudes with mixed real/complex
operands, and complex values across the C ABI between gcc- and pgcc-built objects in both directions
(registers, memory when the SSE registers run out, callbacks, shared globals); plus the errors for what is not
supported (complex through printf's `...`; `long double _Complex` is test_vector_extensions')."""

from __future__ import annotations

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, compile_error, run_exe, run_pgcc

C = PROGRAMS / "c"


def pgcc_output(src, tmp, opt):
    r = run_pgcc([src, opt, "-o", tmp / "pg", "-lm"])
    assert r.returncode == 0, r.stderr
    return run_exe(tmp / "pg")


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("name", ["complex_numerics", "complex_objects", "complex_globals", "complex_varargs",
                                  "complex_records", "complex_libm"])
def test_programs_like_gcc(tmp_path, name, opt):
    ref = run_exe(build_gcc(C / f"{name}.c", tmp_path / "ref"))
    got = pgcc_output(C / f"{name}.c", tmp_path, opt)
    assert ref.returncode == 0 and ref.stdout
    assert (got.returncode, got.stdout) == (ref.returncode, ref.stdout)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_annex_g_like_gcc(tmp_path, opt):
    ref = run_exe(build_gcc(C / "complex_annex_g.c", tmp_path / "ref"))
    got = pgcc_output(C / "complex_annex_g.c", tmp_path, opt)
    assert got.returncode == ref.returncode == 0
    assert got.stdout == ref.stdout  # (signs of zeros and NaNs included)
    assert "inf" in ref.stdout and "nan" in ref.stdout  # (the edge cases are reached)


def test_abi_between_gcc_and_pgcc(tmp_path):
    objs = {}
    for part in ("lib", "main"):
        src = C / f"complex_abi_{part}.c"
        objs["gcc", part] = tmp_path / f"g_{part}.o"
        subprocess.run(["gcc", "-O0", "-c", str(src), "-o", str(objs["gcc", part])], check=True)
        objs["pgcc", part] = tmp_path / f"p_{part}.o"
        r = run_pgcc(["-O2", "-c", src, "-o", objs["pgcc", part]])
        assert r.returncode == 0, r.stderr
    outs = {}
    for lib in ("gcc", "pgcc"):
        for main in ("gcc", "pgcc"):
            exe = tmp_path / f"{lib}_{main}"
            subprocess.run(["gcc", str(objs[lib, "lib"]), str(objs[main, "main"]), "-o", str(exe), "-lm"], check=True)
            r = run_exe(exe)
            outs[lib, main] = (r.returncode, r.stdout)
    assert outs["gcc", "gcc"][0] == 0 and outs["gcc", "gcc"][1].count("\n") == 8
    assert outs["gcc", "pgcc"] == outs["pgcc", "gcc"] == outs["pgcc", "pgcc"] == outs["gcc", "gcc"]


@pytest.mark.parametrize("code, what", [
    ("#include <stdio.h>\nint main(void) { double _Complex w = 2.0; printf(\"%f\\n\", w); return 0; }\n",
     ":2:58: error: unsupported construct: passing a '_Complex double' to 'printf'"),
    ("double _Complex f(int n, ...) { return n; }\n",
     ":1:17: error: unsupported construct: definition of the variadic function 'f' with a complex parameter"),
    ("int main(void) { _Complex int k = 1; return __real__ k; }\n",
     ":1:31: error: unsupported construct: variable of type '_Complex int'"),
])
def test_unsupported_is_clear_error(tmp_path, code, what):
    assert what in compile_error(tmp_path / "e.c", code)
