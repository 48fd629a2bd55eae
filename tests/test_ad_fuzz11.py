"""Wrong or refused derivatives found by the random program generator benchmarks/fuzz_ad.py, reduced; and a few
fixed seeds of the generator itself. Each program is checked against central finite differences (and forward
mode against reverse mode)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from conftest import PROGRAMS, ROOT, compile_error, run_ad_program, run_exe, run_pgcc

AD = PROGRAMS / "ad"


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_ad", ROOT / "benchmarks" / "fuzz_ad.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fuzz_ad", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_records_with_int_field_copied_at_run_time_index(opt, tmp):
    # (was: "unsupported construct: reverse mode through a copy of memory holding differentiated values whose
    # fields pgcc cannot tell apart", the int field made the array of records look non-uniform)
    got, rows = run_ad_program(AD / "fuzz11_struct_int_field.c", opt, tmp)
    assert got.returncode == 0, got.stderr
    tol = {"f": 1e-8, "g": 1e-4}  # (g's fields are floats: a step of 1e-3)
    assert {r[0] for r in rows} == {"f_rev", "f_fwd", "g_rev", "g_fwd"}
    for label, d, ref in rows:
        assert abs(ref) > 0.1
        assert abs(d - ref) <= tol[label[0]] * (1 + abs(ref)), (label, d, ref)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_recursion_reading_memory_the_caller_overwrites(opt, tmp):
    # (was a wrong gradient: the recursive calls inside the taped call re-read the array after the caller's store)
    got, rows = run_ad_program(AD / "fuzz11_recursive_reads_overwritten.c", opt, tmp)
    assert got.returncode == 0, got.stderr
    assert {r[0] for r in rows} == {"f_rev", "f_fwd", "g_rev", "g_fwd"}
    for label, d, ref in rows:
        assert abs(ref) > 0.01
        assert abs(d - ref) <= 1e-8 * (1 + abs(ref)), (label, d, ref)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_triangular_nest_with_carried_adjoint(opt, tmp):
    # (was an abort in ad/shifted_adjoints.py: "Cannot destroy a value that still has uses")
    got, rows = run_ad_program(AD / "fuzz11_triangular_carried_adjoint.c", opt, tmp)
    assert got.returncode == 0, got.stderr
    assert [r[0] for r in rows] == ["rev", "fwd"]
    for label, d, ref in rows:
        assert abs(ref) > 0.1
        assert abs(d - ref) <= 1e-8 * (1 + abs(ref)), (label, d, ref)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_counted_loop_with_float_exit_test(opt, tmp):
    # (was an internal compiler error: "Cannot cast type to IntegerType" in ad/counted_loops.py)
    got, rows = run_ad_program(AD / "fuzz11_while_float_exit.c", opt, tmp)
    assert got.returncode == 0, got.stderr
    assert [r[0] for r in rows] == ["third_rev", "third_fwd", "last_rev", "last_fwd"]
    for label, d, ref in rows:
        assert abs(ref) > 0.1
        assert abs(d - ref) <= 1e-8 * (1 + abs(ref)), (label, d, ref)


# A few programs of the generator itself (benchmarks/fuzz_ad.py: reverse, forward and, for "c" 400, vector
# forward mode against central finite differences); seeds picked for the constructs they cover.
GENERATED = [("c", 400), ("c", 401), ("omp", 1), ("cuda", 202)]


@pytest.mark.parametrize("kind,seed", GENERATED)
def test_generated_program(kind, seed, tmp):
    fz = _fuzz_module()
    src, feat = fz.cuda_program(seed) if kind == "cuda" else fz.c_program(seed, kind)
    path = tmp / (f"g{seed}.cu" if kind == "cuda" else f"g{seed}.c")
    path.write_text(src)
    flags = {"c": [], "omp": ["-fopenmp"], "cuda": ["--cpuify"]}[kind]
    r = run_pgcc([path, "-O2", "-lm", "-o", tmp / "g", *flags])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "g", threads=2)
    assert got.returncode == 0, got.stderr
    assert fz.check(got.stdout.strip()) == "ok", (got.stdout, sorted(feat))


def test_parallel_loop_inside_data_dependent_loop_is_a_clear_error(tmp):
    # (a generated OpenMP program: the message said the opposite nesting)
    err = compile_error(tmp / "pw.c", """#include <math.h>
extern double __enzyme_autodiff(void *, ...);
double f(double *o, double *a, int n) {
  int it = 0;
  while (it < 4) {
#pragma omp parallel for
    for (int j = 0; j < n; j++) o[j] = sin(o[j]) * a[j];
    if (o[0] > 1.3) break;
    it++;
  }
  return o[1];
}
void g(double *o, double *d, double *a, double *da) { __enzyme_autodiff((void *)f, o, d, a, da, 4); }
""", flags=("-O2", "-fopenmp", "-c"))
    assert "pw.c:7:5: error: unsupported construct: reverse mode needs a value from a parallel loop inside a loop " \
           "with a data-dependent trip count" in err
