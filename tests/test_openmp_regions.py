"""General OpenMP parallel regions (with -fopenmp): programs with worksharing loops, single/master/masked,
critical, atomic, sections, barriers, lastprivate and min/max/array reductions print what gcc -fopenmp's
builds print at 1, 2 and 4 threads (pgcc at -O0 and -O2); the frontend emits omp dialect ops for them and
keeps scf.parallel for the simple forms; data races and unsupported constructs are errors."""

from __future__ import annotations

import subprocess

import pytest

from conftest import PROGRAMS, run_exe, run_pgcc

OMP = PROGRAMS / "openmp"
THREADS = (1, 2, 4)
PROGRAMS_OMP = ["md_forces", "histogram_sync", "stencil_region", "sections_tree", "reductions_misc", "static_globals"]


def gcc_build(src, out):
    r = subprocess.run(["gcc", "-fopenmp", "-O0", "-ffp-contract=off", "-std=gnu11", str(src), "-o", str(out),
                        "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.parametrize("program", PROGRAMS_OMP)
def test_outputs_equal_gcc_openmp(program, tmp):
    ref = gcc_build(OMP / f"{program}.c", tmp / f"{program}_gcc")
    exes = {}
    for level in ("-O0", "-O2"):
        exe = tmp / f"{program}{level}"
        r = run_pgcc([OMP / f"{program}.c", "-fopenmp", level, "-o", exe, "-lm"])
        assert r.returncode == 0, r.stderr
        exes[level] = exe
    for n in THREADS:
        want = run_exe(ref, threads=n)
        assert want.returncode == 0 and want.stdout.strip()
        for level, exe in exes.items():
            got = run_exe(exe, threads=n)
            assert got.returncode == want.returncode, got.stderr
            assert got.stdout == want.stdout, f"{level} OMP_NUM_THREADS={n}"


def test_general_regions_are_omp_ops_and_simple_loops_stay_scf_parallel():
    r = run_pgcc([OMP / "histogram_sync.c", "-fopenmp", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    mlir = r.stdout
    assert mlir.count("omp.parallel") == 2 and "scf.parallel" not in mlir  # main's region and pi_spmd's
    for op in ("omp.wsloop", "omp.loop_nest", "omp.critical {", "omp.critical(@__omp_critical_totals_a)",
               "omp.single nowait", "omp.master", "omp.barrier", "memref.atomic_rmw"):
        assert op in mlir, op
    assert mlir.count("omp.critical.declare") == 2
    r = run_pgcc([OMP / "stencil_region.c", "-fopenmp", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    # init's `parallel for collapse(2)` and the final reduction loop are still scf.parallel (the polyhedral and
    # cleanup stages work on them); the time-stepping region is one omp.parallel
    assert r.stdout.count("scf.parallel") == 2 and r.stdout.count("omp.parallel") == 1
    low = run_pgcc([OMP / "sections_tree.c", "-fopenmp", "--emit=llvm", "-o", "-"])
    assert low.returncode == 0, low.stderr
    for call in ("__kmpc_fork_call", "__kmpc_for_static_init", "__kmpc_single", "__kmpc_barrier",
                 "__kmpc_critical", "__kmpc_masked"):
        assert call in low.stdout, call


def test_trailing_barrier_belongs_to_its_block(tmp):
    # `#pragma omp barrier` as the last statement of a loop body runs in every iteration (not after the loop)
    src = tmp / "tb.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n  int hits[8] = {0}, seen = 0;\n"
                   "#pragma omp parallel\n  {\n    for (int k = 0; k < 8; k++) {\n"
                   "#pragma omp single nowait\n      hits[k]++;\n#pragma omp barrier\n    }\n  }\n"
                   "  for (int k = 0; k < 8; k++) seen += hits[k];\n  printf(\"%d\\n\", seen);\n  return 0;\n}\n")
    r = run_pgcc([src, "-fopenmp", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("omp.parallel"):]
    loop = body.index("affine.for") if "affine.for" in body else body.index("scf.for")
    assert loop < body.index("omp.barrier") < body.index("omp.terminator", body.index("omp.barrier"))
    exe = tmp / "tb"
    assert run_pgcc([src, "-fopenmp", "-o", exe]).returncode == 0
    ref = gcc_build(src, tmp / "tb_gcc")
    for n in THREADS:
        assert run_exe(exe, threads=n).stdout == run_exe(ref, threads=n).stdout == "8\n"


ERRORS = [
    ("region_race", "void f(int n, double *a) {\n  double s = 0;\n  #pragma omp parallel\n  {\n"
                    "    s = a[0];\n  }\n  a[1] = s;\n}\n",
     "3:3: error: variable 's' is shared in the parallel region and assigned in it outside 'critical'"),
    ("loop_race", "int g;\nvoid f(int n, double *a) {\n  #pragma omp parallel\n  {\n    a[0] = 0;\n"
                  "    #pragma omp for\n"
                  "    for (int i = 0; i < n; i++) g = i;\n  }\n}\n",
     "3:3: error: variable 'g' is shared in the parallel region and assigned in it"),
    ("orphaned_race", "int g;\nvoid f(int n) {\n  #pragma omp for\n  for (int i = 0; i < n; i++) g += i;\n}\n",
     "3:3: error: variable 'g' is shared in the parallel region and assigned in it"),
    ("private_after_loop", "int f(int n, double *a) {\n  int t;\n  #pragma omp parallel\n  {\n"
                           "    int last;\n    #pragma omp for\n    for (int i = 0; i < n; i++)\n"
                           "      for (last = 0; last < 3; last++) a[i] += last;\n    a[0] = last;\n  }\n"
                           "  return 0;\n}\n",
     "6:5: error: private variable 'last' may be read before it is assigned"),
    ("return_out", "int f(double *a) {\n  #pragma omp parallel\n  {\n    if (a[0] > 0) return 1;\n"
                   "    a[1] = 2;\n  }\n  return 0;\n}\n",
     "2:3: error: unsupported OpenMP construct 'return': leaving the 'parallel' construct"),
    ("section_outside", "void f(double *a) {\n  #pragma omp section\n  a[0] = 1;\n}\n",
     "2:3: error: unsupported OpenMP construct 'section': outside a 'sections' construct"),
    ("copyprivate_nowait", "void f(double *a) {\n  #pragma omp parallel\n  {\n    double x;\n"
                           "    #pragma omp single copyprivate(x) nowait\n    x = a[0];\n    a[1] = x;\n  }\n}\n",
     "5:24: error: unsupported OpenMP construct 'copyprivate': with 'nowait'"),
    ("atomic_compare", "void f(int *a, int v) {\n  #pragma omp parallel\n  {\n    #pragma omp atomic compare\n"
                       "    if (*a < v) *a = v;\n  }\n}\n",
     "4:5: error: unsupported OpenMP construct 'atomic compare'"),
    ("atomic_capture_mul", "void f(int *a, int *v) {\n  #pragma omp parallel\n  {\n    int o;\n"
                           "    #pragma omp atomic capture\n    o = a[0] *= 2;\n    v[o & 3] = 1;\n  }\n}\n",
     "5:5: error: unsupported OpenMP construct 'atomic capture': a capture of '*='"),
    ("critical_name", "void f(double *a) {\n  #pragma omp parallel\n  {\n    #pragma omp critical(1)\n"
                      "    a[0] += 1;\n  }\n}\n",
     "4:25: error: expected '(name)' after the OpenMP directive 'critical'"),
    ("num_threads_call", "int g(int);\nvoid f(int n, double *a) {\n  #pragma omp parallel num_threads(g(n))\n  {\n"
                         "    a[0] = 1;\n  }\n}\n",
     "3:36: error: unsupported OpenMP construct 'num_threads': 'g' is not an arithmetic variable in scope here"),
    ("threadprivate", "int counter;\n#pragma omp threadprivate(counter)\nvoid f(void) {\n#pragma omp parallel\n"
                      "  {\n#pragma omp atomic\n    counter++;\n  }\n}\n",
     "2:1: error: unsupported OpenMP construct 'threadprivate'"),
    ("ordered_doacross", "void f(int n, double *a) {\n  #pragma omp parallel for ordered(1)\n"
                         "  for (int i = 1; i < n; i++) a[i] += a[i - 1];\n}\n",
     "2:28: error: unsupported OpenMP construct 'ordered(n)': doacross loops"),
    ("if_pointer", "void f(int n, double *a) {\n  #pragma omp parallel if(a)\n  {\n    a[0] = 1;\n  }\n}\n",
     "2:27: error: unsupported OpenMP construct 'if': 'a' is not an arithmetic variable in scope here"),
]


@pytest.mark.parametrize("name,src,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name, src, message, tmp):
    path = tmp / f"{name}.c"
    path.write_text(src)
    r = run_pgcc(["-fopenmp", "-c", path, "-o", tmp / "x.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr
    assert r.stderr.startswith(f"{path}:{message}"), r.stderr


def test_loop_hints_between_directive_and_loop_are_accepted(tmp):
    src = tmp / "hints.c"
    src.write_text("void f(int n, double *a, double *b) {\n#pragma omp parallel for\n#pragma GCC ivdep\n"
                   "  for (int i = 0; i < n; i++) a[i] = b[i] * 2;\n#pragma omp parallel\n  {\n"
                   "#pragma omp for\n#pragma GCC unroll 4\n    for (int i = 0; i < n; i++) a[i] += 1;\n"
                   "#pragma omp for\n#pragma nounroll\n    for (int i = 0; i < n; i++) b[i] += a[i];\n  }\n}\n")
    r = run_pgcc([src, "-fopenmp", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("scf.parallel") == 3


def test_shared_variable_of_a_region_reduced_by_a_later_parallel_loop(tmp):
    # `s` lives in memory for the region; the `parallel for` that reduces it then runs as a region as well
    src = tmp / "mixed.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n  double s = 0, a[300];\n"
                   "  for (int i = 0; i < 300; i++) a[i] = i % 17;\n#pragma omp parallel\n  {\n"
                   "#pragma omp single\n    s = 1;\n  }\n#pragma omp parallel for reduction(+:s)\n"
                   "  for (int i = 0; i < 300; i++) s += a[i];\n  printf(\"%.1f\\n\", s);\n  return 0;\n}\n")
    exe = tmp / "mixed"
    r = run_pgcc([src, "-fopenmp", "-o", exe])
    assert r.returncode == 0, r.stderr
    ref = gcc_build(src, tmp / "mixed_gcc")
    for n in THREADS:
        assert run_exe(exe, threads=n).stdout == run_exe(ref, threads=n).stdout


def test_polyhedral_stage_with_regions(tmp):
    # -O3 schedules SCoPs; code a whole team runs is left alone (its demoted loop state would be shared)
    src = OMP / "stencil_region.c"
    exe = tmp / "st3"
    r = run_pgcc([src, "-fopenmp", "-O3", "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    ref = gcc_build(src, tmp / "st_gcc")
    for n in (1, 4):
        assert run_exe(exe, threads=n).stdout == run_exe(ref, threads=n).stdout


def test_python_api_general_region():
    import numpy as np

    import polygeist_py as pg
    prog = pg.compile("double total(int n, double x[n]) {\n  double s = 0;\n#pragma omp parallel\n  {\n"
                      "    double part = 0;\n#pragma omp for\n    for (int i = 0; i < n; i++) part += x[i];\n"
                      "#pragma omp critical\n    s += part;\n  }\n  return s;\n}\n", clang_args=["-fopenmp"])
    assert "omp.parallel" in prog.mlir and "omp.critical" in prog.mlir
    x = np.arange(1000.0)
    assert prog.total(1000, x) == float(x.sum())


def test_differentiating_a_team_dependent_region_is_an_error(tmp):
    # (a region of omp for loops and critical sections differentiates: tests/test_ad_openmp_regions.py; one whose
    # work depends on the thread number cannot run as a team of one)
    path = tmp / "adr.c"
    path.write_text("extern double __enzyme_autodiff(void *, ...);\nint omp_get_thread_num(void);\n"
                    "double f(const double *x, int n) {\n"
                    "  double s = 0;\n#pragma omp parallel\n  {\n    double p = omp_get_thread_num();\n#pragma omp for\n"
                    "    for (int i = 0; i < n; i++) p += x[i] * x[i];\n#pragma omp critical\n    s += p;\n  }\n"
                    "  return s;\n}\n"
                    "void g(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }\n")
    r = run_pgcc(["-fopenmp", "-c", path, "-o", tmp / "a.o"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{path}:6:3: error: unsupported construct: reverse mode through an OpenMP parallel region" in r.stderr, \
        r.stderr


def test_atomic_forms_written_as_assignments(tmp):
    # `x = x op e`, `x = e op x` and a capture of one; `int += double` is not one read-modify-write: an error
    src = tmp / "at.c"
    src.write_text("#include <stdio.h>\nint h[4]; double d;\nint main(void) {\n  int cap = 0;\n"
                   "#pragma omp parallel\n  {\n#pragma omp atomic\n    h[0] = h[0] + 2;\n"
                   "#pragma omp atomic update\n    h[1] = 3 | h[1];\n#pragma omp atomic\n    d = d + 0.25;\n"
                   "#pragma omp atomic capture\n    cap = h[2] = h[2] + 1;\n#pragma omp atomic\n"
                   "    h[3] += cap > 0;\n  }\n"
                   "  printf(\"%d %d %.2f %d %d\\n\", h[0], h[1], d, h[2], h[3]);\n  return 0;\n}\n")
    exe = tmp / "at"
    r = run_pgcc([src, "-fopenmp", "-o", exe])
    assert r.returncode == 0, r.stderr
    ref = gcc_build(src, tmp / "at_gcc")
    for n in THREADS:
        assert run_exe(exe, threads=n).stdout == run_exe(ref, threads=n).stdout
    bad = tmp / "mixed.c"
    bad.write_text("int h[4];\nvoid f(void) {\n#pragma omp parallel\n  {\n#pragma omp atomic\n    h[0] += 0.5;\n"
                   "  }\n}\n")
    r = run_pgcc([bad, "-fopenmp", "-c", "-o", tmp / "m.o"])
    assert r.returncode == 1
    assert r.stderr.startswith(f"{bad}:5:1: error: unsupported OpenMP construct 'atomic': an update of 'int' by a "
                               "value of type 'double'"), r.stderr


def test_declare_simd_at_file_scope_is_a_hint(tmp):
    src = tmp / "ds.c"
    src.write_text("#pragma omp declare simd\ndouble sq(double x) { return x * x; }\n"
                   "int main(void) {\n  double s = 0;\n#pragma omp parallel for reduction(+:s)\n"
                   "  for (int i = 0; i < 10; i++) s += sq(i);\n  return (int)s - 285;\n}\n")
    exe = tmp / "ds"
    r = run_pgcc([src, "-fopenmp", "-o", exe])
    assert r.returncode == 0, r.stderr
    assert run_exe(exe, threads=2).returncode == 0


def test_single_copyprivate_broadcasts(tmp):
    # scalars, a struct and an array read by one thread reach every thread, in each round
    src = tmp / "cp.c"
    src.write_text("""#include <stdio.h>
#include <omp.h>
typedef struct { int n; double w; } cfg;
static int input_value(int k) { return 40 + k; }
int main(void) {
  int sums[64] = {0}, total = 0;
#pragma omp parallel
  {
    int n;
    cfg c;
    double buf[3];
    for (int round = 0; round < 3; round++) {
#pragma omp single copyprivate(n, c, buf)
      {
        n = input_value(round);
        c.n = n * 2; c.w = 0.5 * round;
        buf[0] = n; buf[1] = c.w; buf[2] = -1;
      }
      sums[omp_get_thread_num()] += n + c.n + (int)(buf[0] + buf[1] * 2 + buf[2]);
    }
  }
  for (int i = 0; i < 64; i++) total += sums[i];
  printf("%d %d\\n", total, total / omp_get_max_threads());
  return 0;
}
""")
    exe = tmp / "cp"
    r = run_pgcc([src, "-fopenmp", "-o", exe])
    assert r.returncode == 0, r.stderr
    ref = gcc_build(src, tmp / "cp_gcc")
    for n in THREADS:
        got = run_exe(exe, threads=n).stdout
        assert got == run_exe(ref, threads=n).stdout and got.split()[1] == "492"


def test_ordered_regions_run_in_iteration_order(tmp):
    src = tmp / "od.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n  int order[40], pos = 0;\n  double acc = 0;\n"
                   "#pragma omp parallel for ordered schedule(dynamic, 3)\n  for (int i = 0; i < 40; i++) {\n"
                   "    double v = i * 0.5;\n#pragma omp ordered\n    {\n      order[pos++] = i;\n"
                   "      acc = acc * 0.5 + v;\n    }\n  }\n  int inorder = 1;\n"
                   "  for (int i = 0; i < 40; i++) inorder &= order[i] == i;\n"
                   "  printf(\"%d %d %.10f\\n\", inorder, pos, acc);\n  return 0;\n}\n")
    exe = tmp / "od"
    r = run_pgcc([src, "-fopenmp", "-o", exe])
    assert r.returncode == 0, r.stderr
    ref = gcc_build(src, tmp / "od_gcc")
    for n in THREADS:
        got = run_exe(exe, threads=n).stdout
        assert got == run_exe(ref, threads=n).stdout and got.startswith("1 40 ")
