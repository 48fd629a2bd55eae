"""Derivatives through grid-stride loops of CUDA kernels and strided while loops of C (ad/while_to_for.py counts
them before AD): reverse and forward mode against central finite differences, a counter that would wrap around
(the derivative aborts with a message), and a loop whose trip count depends on data (a clear compile error).
Also calls through a function pointer chosen at run time (ad/pointer_dispatch.py)."""

from __future__ import annotations

import pytest
from mlir import ir

from conftest import PROGRAMS, build_pgcc, compile_error, cpuify_outputs, rows_of, run_exe
from test_ad_fuzz11 import _fuzz_module

AD = PROGRAMS / "ad"


def assert_rows_match(rows, labels):
    assert [r[0] for r in rows] == labels
    for label, d, ref in rows:
        assert abs(ref) > 0.05, label
        assert abs(d - ref) <= 1e-7 * (1 + abs(ref)), (label, d, ref)


KERNELS = [f"f_{k}_{m}" for k in ("axpy", "dot", "grid2d", "tiles", "norm") for m in ("rev", "fwd")]


def test_grid_stride_kernels(tmp):
    # (was: "unsupported construct: reverse mode needs a value from a loop with a data-dependent trip count inside
    # a parallel loop"; the block-stride loop around a tree reduction was an internal error in counted_loops.py)
    for out in cpuify_outputs(AD / "cuda_gridstride.cu", tmp, threads=(1, 2)):
        assert_rows_match(rows_of(out), KERNELS)


def test_grid_stride_kernels_unoptimized(tmp):
    exe = build_pgcc(AD / "cuda_gridstride.cu", tmp / "gs0", extra=("--cpuify", "-O0", "-lm"))
    got = run_exe(exe, threads=2)
    assert got.returncode == 0, got.stderr
    assert_rows_match(rows_of(got.stdout), KERNELS)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_strided_while_loops_in_c_and_openmp(opt, tmp):
    # (the `#pragma omp parallel for` ones were refused like the grid-stride loops)
    exe = build_pgcc(AD / "strided_while_loops.c", tmp / "sw", extra=(opt, "-fopenmp", "-lm"))
    got = run_exe(exe, threads=2)
    assert got.returncode == 0, got.stderr
    assert_rows_match(rows_of(got.stdout), [f"{p}_{m}" for p in ("k1", "k4", "p2", "p3") for m in ("rev", "fwd")])


WRAPS = r"""
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double f(double *a, double x, unsigned n, unsigned k) {
  double s = x;
  for (unsigned i = 0; i < n; i += k)
    s = s * 0.5 + a[i % 4] * x;
  return s;
}
int main(void) {
  double a[4] = {1, 2, 3, 4}, da[4] = {0};
  printf("%g\n", __enzyme_autodiff((void *)f, a, da, 0.5, 9u, 4u));
  fflush(stdout);
  __enzyme_autodiff((void *)f, a, da, 0.5, 4294967295u, 1u << 30); /* (i: 0, 2^30, 2^31, 3 * 2^30, 0, ...) */
  printf("not reached\n");
  return 0;
}
"""


def test_counter_that_wraps_around_aborts_the_derivative(tmp):
    src = tmp / "wraps.c"
    src.write_text(WRAPS)
    got = run_exe(build_pgcc(src, tmp / "wraps"))
    # s = ((x/2 + a0 x)/2 + a0 x)/2 + a0 x at i = 0, 4, 8: ds/dx = 1/8 + a0 (1/4 + 1/2 + 1) = 1.875
    assert got.stdout.splitlines() == ["1.875"]
    assert got.returncode != 0
    assert ("wraps.c:6:3: the loop's counter would wrap around (or its step is not positive): its derivative is "
            "not computed") in got.stderr


def test_data_dependent_loop_in_a_kernel_stays_an_error(tmp):
    err = compile_error(tmp / "dd.cu", r"""
extern double __enzyme_autodiff(void *, ...);
__global__ void walk(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n && x[i] > 0.1) { y[i] = x[i] * x[i]; i += blockDim.x * gridDim.x; }
}
void host(const double *x, double *y, int n) { walk<<<2, 4>>>(x, y, n); }
void grad(double *x, double *dx, double *y, double *dy) { __enzyme_autodiff((void *)host, x, dx, y, dy, 9); }
""", flags=("-O2", "--cpuify", "-c"))
    assert "dd.cu:7:48: error: unsupported construct: reverse mode needs a value from a loop with a data-dependent " \
           "trip count inside a parallel loop" in err


LOOPS = """
func.func @f(%lb: i32, %ub: i32, %st: i32, %m: memref<?xf64>) -> i32 {
  %r = scf.while (%i = %lb) : (i32) -> i32 {
    %c = arith.cmpi sgt, %ub, %i : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %k = arith.index_cast %i : i32 to index
    %v = memref.load %m[%k] : memref<?xf64>
    memref.store %v, %m[%k] : memref<?xf64>
    %n = arith.addi %st, %i : i32
    scf.yield %n : i32
  }
  %q = scf.while (%i = %lb) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %ub : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %s = arith.muli %i, %st : i32
    %n = arith.addi %i, %s : i32
    scf.yield %n : i32
  }
  %t = arith.addi %r, %q : i32
  return %t : i32
}
"""


def test_uplift_matches_an_additive_invariant_step_only():
    from polygeist_py.ad.while_to_for import match, uplift_while_loops
    with ir.Context(), ir.Location.unknown():
        m = ir.Module.parse(LOOPS)
        f = m.body.operations[0]
        whiles = [op for op in f.regions[0].blocks[0].operations if op.operation.name == "scf.while"]
        assert match(whiles[0]).pred == "slt" and match(whiles[1]) is None  # (`ub > i`; a step made in the loop)
        assert uplift_while_loops(f, m) == 1
        assert m.operation.verify()
        text = str(m)
        assert text.count("scf.while") == 1 and text.count("scf.for") == 1 and "@abort" in text


def test_function_pointers_chosen_at_run_time(tmp):
    # (was: "unsupported construct: differentiating a call through a function pointer that is not one known
    # function where it is differentiated (call the function by name)")
    exe = build_pgcc(AD / "function_pointer_dispatch.c", tmp / "fpd", extra=("-O0", "-lm"))
    got = run_exe(exe)
    assert got.returncode == 0, got.stderr
    labels = [f"chosen{k}" for k in range(2)] + [f"apply{k}" for k in range(4)] + ["walk"]
    assert_rows_match(rows_of(got.stdout), [f"{k}_{m}" for k in labels for m in ("rev", "fwd")])


OTHER_FILE = "typedef double (*fn)(double);\nstatic double triple(double x) { return 3 * x; }\n" \
             "fn other(void) { return triple; }\n"

CALLER = r"""
#include <stdio.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
typedef double (*fn)(double);
fn other(void);
static double square(double x) { return x * x; }
void *(*get)(size_t) = malloc;
double apply(fn f, double x) { return f(x) * 2.0; }
double scratch(double *x) { double *t = get(8); t[0] = x[0] * x[0]; double r = t[0]; free(t); return r; }
int main(void) {
  double x[1] = {1.5}, dx[1] = {0};
  __enzyme_autodiff((void *)scratch, x, dx);
  printf("%g %g\n", dx[0], __enzyme_autodiff((void *)apply, enzyme_const, square, 0.5));
  fflush(stdout);
  __enzyme_autodiff((void *)apply, enzyme_const, other(), 0.5);
  printf("not reached\n");
  return 0;
}
"""


def test_function_pointer_to_a_function_of_another_file_aborts(tmp):
    # malloc through a global pointer set to it (the allocator's rule applies); a pointer to a function that
    # this file does not name: the derivative stops with a message (the dispatch has no such candidate)
    (tmp / "other.c").write_text(OTHER_FILE)
    (tmp / "caller.c").write_text(CALLER)
    exe = build_pgcc(tmp / "caller.c", tmp / "two", extra=(tmp / "other.c",))
    got = run_exe(exe)
    assert got.stdout.splitlines() == ["3 2"]
    assert got.returncode != 0
    assert ("caller.c:10:39: the function pointer called holds none of the functions this file names with its "
            "type (square): its derivative is not computed") in got.stderr


# Programs of benchmarks/fuzz_ad.py: a 2-D grid-stride kernel (cuda 16) and a table of functions indexed by data
# (c 9), both refused before
@pytest.mark.parametrize("kind,seed", [("cuda", 16), ("c", 9)])
def test_generated_program(kind, seed, tmp):
    fz = _fuzz_module()
    src, feat = fz.cuda_program(seed) if kind == "cuda" else fz.c_program(seed, kind)
    assert ("gridstride2d" if kind == "cuda" else "fnptr") in feat
    path = tmp / (f"g{seed}.cu" if kind == "cuda" else f"g{seed}.c")
    path.write_text(src)
    got = run_exe(build_pgcc(path, tmp / "g", extra=("-lm", "--cpuify") if kind == "cuda" else ("-lm",)), threads=2)
    assert got.returncode == 0, got.stderr
    assert fz.check(got.stdout.strip()) == "ok", (got.stdout, sorted(feat))
