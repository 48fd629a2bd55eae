"""pgcc as a C compiler driver: several inputs, separate compilation with -c, objects from gcc, -S, -D,
--emit=llvm, and the program's exit status."""

import subprocess

import pytest

from conftest import run_exe, run_pgcc

LIB = """#include <stdio.h>
int counter = 5;
double weights[4] = {0.5, 1.5, 2.5, 3.5};
static int helper(int x) { return x * 3; }
int weighted_sum(int n, double v[n]) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * weights[i % 4];
  counter += helper(n);
  return (int)s;
}
"""

MAIN = """#include <stdio.h>
extern int counter;
int weighted_sum(int n, double v[n]);
static int helper(int x) { return x + SHIFT; }
int main(void) {
  double v[8];
  for (int i = 0; i < 8; i++) v[i] = i;
  int t = weighted_sum(8, v);
  printf("%d %d %d\\n", t, counter, helper(1));
  return t % 7;
}
"""


@pytest.fixture
def sources(tmp):
    (tmp / "lib.c").write_text(LIB)
    (tmp / "main.c").write_text(MAIN)
    ref = tmp / "ref"
    subprocess.run(["gcc", "-DSHIFT=10", tmp / "main.c", tmp / "lib.c", "-o", ref], check=True)
    return tmp, run_exe(ref)


def assert_same_run(exe, ref):
    got = run_exe(exe)
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_two_sources_one_program(sources):
    """Static functions of the same name in two files stay separate; extern globals are shared."""
    tmp, ref = sources
    r = run_pgcc(["-DSHIFT=10", tmp / "main.c", tmp / "lib.c", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert ref.returncode != 0  # the exit status is part of what is compared
    assert_same_run(tmp / "app", ref)


def test_separate_compilation_and_gcc_objects(sources):
    tmp, ref = sources
    assert run_pgcc(["-c", tmp / "lib.c", "-o", tmp / "lib.o"]).returncode == 0
    assert run_pgcc(["-c", "-D", "SHIFT=10", tmp / "main.c", "-o", tmp / "main.o"]).returncode == 0
    # pgcc links its own objects, and gcc links pgcc's objects: the C ABI is gcc's
    assert run_pgcc([tmp / "main.o", tmp / "lib.o", "-o", tmp / "app"]).returncode == 0
    assert_same_run(tmp / "app", ref)
    subprocess.run(["gcc", tmp / "main.o", tmp / "lib.o", "-o", tmp / "app_gcc"], check=True)
    assert_same_run(tmp / "app_gcc", ref)
    subprocess.run(["gcc", "-c", tmp / "lib.c", "-o", tmp / "lib_gcc.o"], check=True)
    assert run_pgcc(["-DSHIFT=10", tmp / "main.c", tmp / "lib_gcc.o", "-o", tmp / "app_mixed"]).returncode == 0
    assert_same_run(tmp / "app_mixed", ref)


def test_c_without_o_names_object_after_source(sources):
    tmp, _ = sources
    r = run_pgcc(["-c", "lib.c"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    nm = subprocess.run(["nm", tmp / "lib.o"], capture_output=True, text=True, check=True).stdout
    assert " T weighted_sum" in nm and " D counter" in nm
    assert " T helper" not in nm  # static: never an external symbol


def test_assembly_and_llvm_ir(sources):
    tmp, _ = sources
    assert run_pgcc(["-S", tmp / "lib.c", "-o", tmp / "lib.s"]).returncode == 0
    asm = (tmp / "lib.s").read_text()
    assert "weighted_sum:" in asm and ".globl\tweighted_sum" in asm
    r = run_pgcc(["--emit=llvm", tmp / "lib.c", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "define i32 @weighted_sum(i32" in r.stdout
    assert "define internal i32 @helper(i32" in r.stdout  # C's static is LLVM's internal linkage


def test_o_with_c_and_several_sources_is_an_error(sources):
    tmp, _ = sources
    r = run_pgcc(["-c", tmp / "main.c", tmp / "lib.c", "-o", tmp / "x.o"])
    assert r.returncode == 1 and "cannot specify -o" in r.stderr and "Traceback" not in r.stderr


def test_unknown_flag_warns_and_compiles(sources):
    tmp, ref = sources
    r = run_pgcc(["--frobnicate", "-Wall", "-g", "-DSHIFT=10", tmp / "main.c", tmp / "lib.c", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert "ignoring unknown option '--frobnicate'" in r.stderr and "-Wall" not in r.stderr
    assert_same_run(tmp / "app", ref)


def test_fp_contract_fast_fuses_multiply_add(tmp):
    """-ffp-contract=fast (gcc's default) lets llc form FMA instructions; by default a * b + c rounds twice,
    as gcc -O0 computes it; an unknown value is an error."""
    src = tmp / "axpy.c"
    src.write_text("void axpy(int n, double a, double *x, double *y) {\n"
                   "  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n}\n")
    asm = {}
    for flag in ([], ["-ffp-contract=fast"]):
        out = tmp / f"axpy{len(flag)}.s"
        r = run_pgcc([src, "-O2", "-S", "-march=haswell", *flag, "-o", out])  # (a target with FMA)
        assert r.returncode == 0, r.stderr
        asm[bool(flag)] = out.read_text()
    assert "vfmadd" in asm[True] and "vfmadd" not in asm[False]
    r = run_pgcc([src, "-c", "-ffp-contract=sometimes", "-o", tmp / "x.o"])
    assert r.returncode == 1 and "-ffp-contract expects off, on or fast" in r.stderr and "Traceback" not in r.stderr
