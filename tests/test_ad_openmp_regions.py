"""AD through `#pragma omp parallel` regions holding several constructs (`omp for` loops, `critical`, `single`,
`master`, barriers): the derivative runs the region with a team of one thread (ad/openmp_serial.py), the
primal stays parallel. tests/programs/openmp/ad_regions.c prints "label derivative reference" and exits 1 when a
derivative is outside tolerance; built at -O0 and -O2, run at 1 and 2 threads. A region whose work depends on
its team is a clear error. `#pragma omp atomic` (update, read, write, capture) is differentiated
(tests/programs/ad/omp_atomics.c); other atomic operations on differentiated values are errors."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, rows_of, run_exe, run_pgcc


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_parallel_region_derivatives(opt, tmp):
    exe = tmp / "ar"
    r = run_pgcc([PROGRAMS / "openmp" / "ad_regions.c", opt, "-fopenmp", "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(exe, threads=threads)
        rows = rows_of(got.stdout)
        bad = [row for row in rows if abs(row[1] - row[2]) > 1e-5 * (1 + abs(row[2]))]
        assert got.returncode == 0, (threads, bad)
        assert {lab.rsplit("_", 1)[0] for lab, _, _ in rows} == {"crit", "crit_dot", "critf", "single", "master",
                                                                  "master_dot", "address", "address_dot"}
        assert all(abs(g) > 1e-3 for _, g, _ in rows)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_omp_atomic_derivatives(opt, tmp):
    """`#pragma omp atomic` update/read/write/capture in `parallel for` loops and in parallel regions
    (tests/programs/ad/omp_atomics.c): both modes, hand-derived values, 1 and 2 threads."""
    exe = tmp / "oa"
    r = run_pgcc([PROGRAMS / "ad" / "omp_atomics.c", opt, "-fopenmp", "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(exe, threads=threads)
        rows = rows_of(got.stdout)
        assert got.returncode == 0, (threads, rows[-2:])
        assert {lab.rsplit("_", 1)[0] for lab, _, _ in rows} >= {"binned", "two_phase", "read_write", "captured",
                                                                  "read_write_fwd", "captured_acc"}
        assert all(abs(g - w) <= 1e-9 * (1 + abs(w)) for _, g, w in rows)
        assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) >= len(rows) - 4


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_overlapping_pointer_parameters(opt, tmp):
    """Pointer parameters that share memory in a differentiated `parallel for` (tests/programs/ad/
    omp_overlapping_pointers.c, which aborts on a wrong derivative): the plain adjoint updates that
    injective_access allows are guarded by a run-time check of the shadow ranges (ad/parallel_overlap.py).
    Gradients half a buffer apart lost updates at 2 threads before."""
    exe = tmp / "ov"
    r = run_pgcc([PROGRAMS / "ad" / "omp_overlapping_pointers.c", opt, "-fopenmp", "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(exe, threads=threads)
        assert got.returncode == 0 and got.stdout.strip() == "ok", (threads, got.stderr)


ERRORS = [
    # an atomic product of differentiated values
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "void f(const double *x, double *p, int n) {\n  #pragma omp parallel for\n  for (int i = 0; i < n; i++) {\n"
     "    #pragma omp atomic\n    p[0] *= x[i];\n  }\n}\n"
     "void g(double *x, double *dx, double *p, double *dp) { __enzyme_autodiff((void *)f, x, dx, p, dp, 3); }\n",
     6, "differentiating atomic mulf"),
    # the work of each thread depends on its number
    ("#include <omp.h>\nextern double __enzyme_autodiff(void *, ...);\n"
     "double f(const double *x, int n) {\n  double s = 0;\n  #pragma omp parallel\n  {\n"
     "    int t = omp_get_thread_num();\n    #pragma omp for reduction(+:s)\n"
     "    for (int i = 0; i < n; i++) s += x[i] * x[i] * (t + 1);\n  }\n  return s;\n}\n"
     "void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx, 3); }\n", 6, "omp_get_thread_num"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_team_dependent_region_is_a_clear_error(src, line, msg, tmp):
    p = tmp / "e.c"
    p.write_text(src)
    r = run_pgcc([p, "-fopenmp", "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr, r.stderr
    assert f"e.c:{line}:" in r.stderr and "error:" in r.stderr and msg in r.stderr, r.stderr


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_firstprivate_derivatives_follow_the_team(opt, tmp):
    """`parallel for firstprivate(v)` whose iterations carry v within a thread (tests/programs/ad/
    omp_firstprivate_team.c; ad/openmp_teams.py): the gradient matches central differences of the primal run by
    the same team at 1, 2 and 3 threads, and differs between team sizes (the function does)."""
    exe = tmp / "fp"
    r = run_pgcc([PROGRAMS / "ad" / "omp_firstprivate_team.c", opt, "-fopenmp", "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    seen = {}
    for threads in (1, 2, 3):
        got = run_exe(exe, threads=threads)
        rows = rows_of(got.stdout)
        assert got.returncode == 0, (threads, rows)
        assert len(rows) == 6 and all(abs(g - w) <= 1e-6 * (1 + abs(w)) for _, g, w in rows), rows
        seen[threads] = rows[0][1]
    assert len({round(v, 6) for v in seen.values()}) == 3, seen
