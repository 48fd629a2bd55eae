"""`#pragma omp parallel for` in C sources (with -fopenmp): outputs equal gcc -fopenmp's at 1, 2 and 4 threads,
the loops are scf.parallel in the frontend's MLIR and OpenMP after lowering, unsupported constructs and data
races are errors, the OpenMP runtime functions link, and derivatives through the parallel loops are right."""

from __future__ import annotations

import re
import subprocess

import pytest

from conftest import PROGRAMS, build_pgcc, rows_of, run_exe, run_pgcc

OMP = PROGRAMS / "openmp"
THREADS = (1, 2, 4)


def gcc_openmp(src, out):
    r = subprocess.run(["gcc", "-fopenmp", "-O0", "-ffp-contract=off", "-std=gnu11", str(src), "-o", str(out),
                        "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.parametrize("program", ["loops", "threads", "skipped_pragmas", "simd", "atomics", "region_loops",
                                     "pragma_operator", "thread_copies"])
def test_outputs_equal_gcc_openmp(program, tmp):
    exe = build_pgcc(OMP / f"{program}.c", tmp / program, ["-fopenmp"])
    ref = gcc_openmp(OMP / f"{program}.c", tmp / f"{program}_gcc")
    for n in THREADS:
        got, want = run_exe(exe, threads=n), run_exe(ref, threads=n)
        assert got.returncode == 0, got.stderr
        assert got.stdout == want.stdout, f"OMP_NUM_THREADS={n}"
        assert got.stdout.strip()


def test_runtime_functions_see_the_threads(tmp):
    exe = build_pgcc(OMP / "threads.c", tmp / "threads", ["-fopenmp"])
    for n in THREADS:
        out = run_exe(exe, threads=n).stdout
        # every thread of the team ran iterations: the loop really runs in parallel
        assert out.strip() == (f"max_threads={n} outside=1 same_team=1 in_range=1 distinct={n} clock=1")


def test_without_fopenmp_the_pragmas_are_ignored(tmp):
    src = tmp / "serial.c"
    src.write_text((OMP / "loops.c").read_text().replace("#include <omp.h>", "")
                   .replace("omp_get_wtime()", "0.0").replace("omp_get_thread_num()", "0")
                   .replace("omp_get_num_threads()", "1"))
    r = run_pgcc([src, "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "scf.parallel" not in r.stdout
    serial = run_exe(build_pgcc(src, tmp / "serial")).stdout
    parallel = run_exe(build_pgcc(OMP / "loops.c", tmp / "par", ["-fopenmp"]), threads=2).stdout
    assert serial == parallel


def test_mlir_has_parallel_loops_and_reductions():
    r = run_pgcc([OMP / "loops.c", "-fopenmp", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("scf.parallel") == 6
    assert r.stdout.count("scf.reduce(") == 2  # two loops with three reductions each
    assert r.stdout.count("scf.reduce.return") == 6
    # collapse(2): one two-dimensional loop
    assert re.search(r"scf\.parallel \(%\w+, %\w+\)", r.stdout)
    # max/min reductions combine with compare + select (the form convert-scf-to-openmp recognizes)
    assert "arith.cmpf ogt" in r.stdout and "arith.cmpi sgt" in r.stdout
    low = run_pgcc([OMP / "loops.c", "-fopenmp", "--emit=llvm-dialect", "-o", "-"])
    assert low.returncode == 0, low.stderr
    assert low.stdout.count("omp.parallel") >= 6 and "omp.wsloop" in low.stdout
    assert "omp.declare_reduction" in low.stdout


def test_body_locals_are_per_iteration(tmp):
    src = tmp / "local.c"
    src.write_text("void f(int n, double *a) {\n#pragma omp parallel for\n  for (int i = 0; i < n; i++) {\n"
                   "    double tmp[4]; tmp[i % 4] = a[i]; a[i] = tmp[i % 4] * 2; }\n}\n")
    r = run_pgcc(["-fopenmp", src, "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    par = r.stdout.index("scf.parallel")
    assert r.stdout.index("memref.alloca()") > par  # allocated inside the parallel body


def test_num_threads_makes_an_omp_region(tmp):
    # scf.parallel has no thread count: a loop with num_threads runs as omp.parallel(num_threads) + omp.wsloop
    src = tmp / "nt.c"
    src.write_text("void f(int n, double *a) {\n  #pragma omp parallel for num_threads(4)\n"
                   "  for (int i = 0; i < n; i++) a[i] = i;\n}\n")
    r = run_pgcc(["-fopenmp", src, "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr and "scf.parallel" not in r.stdout
    assert re.search(r"omp\.parallel num_threads\(%\w+ : i32\)", r.stdout) and "omp.wsloop" in r.stdout


ERRORS = [
    ("atomic_read_elsewhere", "void f(int n, double *a) {\n  double s = 0;\n  #pragma omp parallel for\n"
                              "  for (int i = 0; i < n; i++) {\n    #pragma omp atomic\n    s += a[i];\n"
                              "    a[i] = s;\n  }\n}\n",
     "3:3: error: unsupported OpenMP construct 'atomic': 's' is read outside its atomic updates in the loop"),
    ("task", "void f(double *a) {\n  #pragma omp task\n  a[0] = 1;\n}\n",
     "2:3: error: unsupported OpenMP construct 'task'"),
    ("noncanonical", "void f(int n, double *a) {\n  #pragma omp parallel for\n"
                     "  for (int i = 1; i < n; i *= 2) a[i] = i;\n}\n",
     "2:3: error: unsupported OpenMP construct 'parallel for': the loop is not in canonical form"),
    ("break", "void f(int n, double *a) {\n  #pragma omp parallel for\n"
              "  for (int i = 0; i < n; i++) { if (a[i] < 0) break; a[i] = 1; }\n}\n",
     "2:3: error: unsupported OpenMP construct 'break': a parallel loop cannot be left early"),
    ("shared_scalar_race", "void f(int n, double *a) {\n  double t;\n  #pragma omp parallel for\n"
                           "  for (int i = 0; i < n; i++) { t = a[i]; a[i] = t * 2; }\n}\n",
     "3:3: error: variable 't' is shared in the parallel loop and assigned in it (a data race)"),
    ("inner_index_race", "void f(int n, double *a) {\n  int j;\n  #pragma omp parallel for\n"
                         "  for (int i = 0; i < n; i++) for (j = 0; j < n; j++) a[i * n + j] = j;\n}\n",
     "3:3: error: variable 'j' is shared in the parallel loop and assigned in it (a data race)"),
    ("flag_two_values", "void f(int n, double *a) {\n  int s = 0;\n  #pragma omp parallel for\n"
                        "  for (int i = 0; i < n; i++) { if (a[i] > 0) s = 1; else s = 2; }\n}\n",
     "3:3: error: variable 's' is shared in the parallel loop and assigned in it (a data race)"),
    ("flag_read", "int f(int n, double *a) {\n  int s = 0;\n  #pragma omp parallel for\n"
                  "  for (int i = 0; i < n; i++) { a[i] = s; s = 1; }\n  return s;\n}\n",
     "3:3: error: variable 's' is shared in the parallel loop and assigned in it (a data race)"),
    ("collapse_nonrectangular", "void f(int n, double *a) {\n  #pragma omp parallel for collapse(2)\n"
                                "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < i; j++) a[i * n + j] = 1;\n}\n",
     "2:3: error: unsupported OpenMP construct 'parallel for': the loop is not in canonical form"),
]


@pytest.mark.parametrize("name,src,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_unsupported_constructs_are_errors(name, src, message, tmp):
    path = tmp / f"{name}.c"
    path.write_text(src)
    r = run_pgcc(["-fopenmp", "-c", path, "-o", tmp / "x.o"])
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr
    assert r.stderr.startswith(f"{path}:{message}"), r.stderr


def test_private_scalars_assigned_before_use_are_accepted(tmp):
    path = tmp / "ok.c"
    path.write_text("void f(int n, int m, double *a) {\n  double t = 1; int j;\n"
                    "  #pragma omp parallel for private(t, j)\n  for (int i = 0; i < n; i++)\n"
                    "    for (j = 0; j < m; j++) { t = a[i * m + j]; a[i * m + j] = t * t; }\n}\n")
    r = run_pgcc(["-fopenmp", "-c", path, "-o", tmp / "ok.o"])
    assert r.returncode == 0, r.stderr


def test_loops_in_function_templates_and_methods(tmp):
    """`#pragma omp parallel for` in the body of a function template (Rodinia cfd's copy<T>) is a directive
    of each instantiation, not one outside a function, and a method's locals are private or shared as a
    function's; outputs equal g++ -fopenmp's."""
    src = tmp / "tpl.cpp"
    src.write_text("#include <stdio.h>\ntemplate <typename T>\nvoid scale(T *dst, const T *src, int n, T f) {\n"
                   "#pragma omp parallel for default(shared) schedule(static)\n"
                   "  for (int i = 0; i < n; i++) dst[i] = src[i] * f;\n}\n"
                   "struct Acc {\n  double s;\n  void add(const double *a, int n) {\n    double t = 0;\n"
                   "#pragma omp parallel for reduction(+ : t)\n    for (int i = 0; i < n; i++) t += a[i];\n"
                   "    s += t;\n  }\n};\n"
                   "int main() {\n  float a[50], b[50]; double c[50], d[50];\n"
                   "  for (int i = 0; i < 50; i++) { a[i] = i * 0.5f; c[i] = i * 0.25; }\n"
                   "  scale<float>(b, a, 50, 3.0f); scale(d, c, 50, -2.0);\n  Acc acc = {1.5};\n  acc.add(d, 50);\n"
                   "  printf(\"%g %g %g %g\\n\", b[7], b[49], d[33], acc.s);\n  return 0;\n}\n")
    exe = build_pgcc(src, tmp / "tpl", ["-fopenmp"])
    r = subprocess.run(["g++", "-fopenmp", str(src), "-o", str(tmp / "ref")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for n in THREADS:
        got, want = run_exe(exe, threads=n), run_exe(tmp / "ref", threads=n)
        assert got.returncode == 0 and got.stdout == want.stdout and want.stdout.strip(), got.stderr


def test_python_api_with_fopenmp():
    import numpy as np

    import polygeist_py as pg
    prog = pg.compile("#include <omp.h>\nint threads(void) { return omp_get_max_threads(); }\n"
                      "double dot(int n, double x[n], double y[n]) {\n  double s = 0;\n"
                      "  #pragma omp parallel for reduction(+:s)\n  for (int i = 0; i < n; i++) s += x[i] * y[i];\n"
                      "  return s;\n}\n", clang_args=["-fopenmp"])
    assert "scf.parallel" in prog.mlir and "omp.wsloop" in prog.lowered_mlir
    x = np.arange(100.0)
    assert prog.dot(100, x, x) == float((x * x).sum())
    assert prog.threads() >= 1


# ------------------------------------------------------------------------------------------------ AD
def test_gradients_through_parallel_loops(tmp):
    exe = build_pgcc(OMP / "ad_parallel.c", tmp / "adp", ["-fopenmp"])
    for n in THREADS:
        r = run_exe(exe, threads=n)
        assert r.returncode == 0, r.stderr
        rows = rows_of(r.stdout)
        assert len(rows) == 5 * 9
        labels = {lab.split("_")[0] for lab, _, _ in rows}
        assert labels == {"smooth", "broadcast", "scatter", "sumsq", "energy"}
        bad = []
        for label, got, ref in rows:
            # finite differences (h = 1e-6) are good to ~1e-8 relative; the dot-product test to rounding
            tol = 1e-10 if label.endswith("_dot") else 2e-7
            if abs(got - ref) > 1e-7 + tol * abs(ref):
                bad.append((n, label, got, ref))
        assert not bad, bad
        assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) > len(rows) * 3 // 4


AD_SRC = """
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
void square(const double *x, double *y, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
}
void first(const double *x, double *y, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * x[0];
}
void grad(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
  __enzyme_autodiff((void *)first, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
"""


def derivative_functions(mlir: str) -> dict:
    out = {}
    for m in re.finditer(r"func\.func (?:private )?@(\S+)\(", mlir):
        end = mlir.find("\n  }", m.start())
        out[m.group(1)] = mlir[m.start():end]
    return out


def test_shadow_updates_are_atomic_only_where_iterations_may_collide(tmp):
    src = tmp / "shadows.c"
    src.write_text(AD_SRC)
    r = run_pgcc(["-fopenmp", src, "--emit=ad", "-o", "-"])
    assert r.returncode == 0, r.stderr
    funcs = derivative_functions(r.stdout)
    sq = next(body for name, body in funcs.items() if name.startswith("square.autodiff"))
    fi = next(body for name, body in funcs.items() if name.startswith("first.autodiff"))
    assert "scf.parallel" in sq and "scf.parallel" in fi  # the reversed loops stay parallel
    # x[i] in iteration i only: plain read-modify-write of the shadow
    assert "memref.atomic_rmw" not in sq
    # x[0] in every iteration: its shadow collects all iterations' adjoints atomically
    assert "memref.atomic_rmw" in fi


def test_differentiating_a_max_reduction_is_an_error(tmp):
    path = tmp / "maxred.c"
    path.write_text("extern double __enzyme_autodiff(void *, ...);\n"
                    "double f(const double *x, int n) {\n  double m = -1e300;\n"
                    "  #pragma omp parallel for reduction(max:m)\n"
                    "  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;\n  return m;\n}\n"
                    "void g(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }\n")
    r = run_pgcc(["-fopenmp", "-c", path, "-o", tmp / "m.o"])
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert f"{path}:5:3: error: unsupported construct: differentiating a parallel loop with a reduction " \
           "other than a sum" in r.stderr
