"""Automatic differentiation of C programs (Enzyme's API) compiled by pgcc: every derivative is compared with a
central finite difference or a hand-derived value computed by the same program, and forward mode with reverse
mode (dot-product test)."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, build_pgcc, cpuify_outputs, derivative_text, emit_ad, rows_of, run_exe, run_pgcc

AD = PROGRAMS / "ad"


def triples(exe):
    """Run `exe`; return its rows (rows_of)."""
    r = run_exe(exe)
    assert r.returncode == 0, r.stderr
    return rows_of(r.stdout)


def assert_close(rows, rtol, atol=1e-6, rtol_for=None):
    assert rows, "the program printed no derivatives"
    bad = []
    for label, got, ref in rows:
        tol = (rtol_for or {}).get(label.split("_")[0], rtol)
        if abs(got - ref) > atol + tol * abs(ref):
            bad.append((label, got, ref))
    assert not bad, bad


@pytest.mark.parametrize("program", ["scalar_math", "arrays", "control", "struct_grads", "memory", "loop_forms", "pointer_arrays", "higher_order", "pointer_walks"])
def test_gradients_match_finite_differences(program, tmp):
    rows = triples(build_pgcc(AD / f"{program}.c", tmp / program))
    # finite differences with h=1e-6 are good to ~1e-8 relative; float programs to ~1e-3
    assert_close(rows, 2e-6, rtol_for={"float": 5e-3})
    # the derivatives are not trivially zero
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) > len(rows) // 2


def test_relu3_hand_derived(tmp):
    rows = [r for r in triples(build_pgcc(AD / "scalar_math.c", tmp / "sm")) if r[0].startswith("relu3")]
    assert len(rows) == 8
    assert_close(rows, 1e-12, atol=0.0)


def test_custom_rules_and_inactive_functions(tmp):
    rows = triples(build_pgcc(AD / "custom_rules.c", tmp / "cr"))
    assert len(rows) == 12
    assert_close(rows, 1e-12, atol=1e-12)
    # the registered rule made the derivative: without it d/dx [round(3x) * x] is round(3x), not 3x + round(3x)
    xs = [0.8, -1.3, 0.05, 2.45]
    ste = [g for label, g, _ in rows if label == "ste_rev"]
    assert all(abs(g - round(3 * x)) > 0.1 for g, x in zip(ste, xs))


def test_forward_reverse_dot_product(tmp):
    rows = triples(build_pgcc(AD / "dotprod.c", tmp / "dp"))
    assert [r[0] for r in rows] == ["step", "energy"]
    assert_close(rows, 1e-10, atol=1e-12)
    assert all(abs(r[1]) > 1e-3 for r in rows)


ERRORS = [
    ("double f(double *x) { return x[0]; }\nextern int enzyme_out;\nextern double __enzyme_autodiff(void*, ...);\n"
     "double g(double *x) { return __enzyme_autodiff((void*)f, enzyme_out, x); }\n", 4, "enzyme_out on pointer"),
    ("double f(double x, double y) { return x * y; }\nextern double __enzyme_autodiff(void*, ...);\n"
     "double g(double x) { return __enzyme_autodiff((void*)f, x, x); }\n", 3, "struct"),
    ("double f(double x) { return x; }\nextern double __enzyme_autodiff(void*, ...);\n"
     "double g(double x) { return __enzyme_autodiff((void*)f, x, x); }\n", 3, "too many arguments"),
    ("double f(double *x, double *y) { y[0] = x[0] * x[0]; return 0.0; }\nextern int enzyme_const;\n"
     "extern double __enzyme_autodiff(void*, ...);\n"
     "void g(double *x, double *dx, double *y) { __enzyme_autodiff((void*)f, x, dx, enzyme_const, y); }\n",
     1, "no shadow"),
    # pointers swapped by a loop, one of them enzyme_const (both duplicated: enzyme_c/joined_pointers.c)
    ("extern double __enzyme_autodiff(void *, ...);\nextern int enzyme_const;\n"
     "double swap(double *x, double *y, int n) {\n"
     "  double s = 0; for (int i = 0; i < n; i++) { s += *x * i; double *t = x; x = y; y = t; } return s; }\n"
     "void g(double *x, double *dx, double *y) { __enzyme_autodiff((void *)swap, x, dx, enzyme_const, y, 4); }\n",
     4, "joins a differentiated pointer with one that has no shadow"),
    ("double f(double x);\nextern double __enzyme_autodiff(void*, ...);\n"
     "double g(double x) { return __enzyme_autodiff((void*)f, x); }\n", 3, "its body is not in this file"),
    ("#include <math.h>\ndouble ext(double);\ndouble f(double x) { return ext(x) * x; }\n"
     "extern double __enzyme_fwddiff(void*, ...);\n"
     "double g(double x) { return __enzyme_fwddiff((void*)f, x, 1.0); }\n", 3, "whose body is not in this file"),
    ("double f(double x) { return x * x; }\nextern int enzyme_width, enzyme_dupv;\n"
     "typedef struct { double a, b; } two;\nextern two __enzyme_fwddiff(void*, ...);\n"
     "two g(double *dx) { return __enzyme_fwddiff((void*)f, enzyme_width, 2, enzyme_dupv, 8, 1.0, dx); }\n",
     5, "unsupported construct: enzyme_dupv on scalar parameter 1 of 'f' (pass its 2 tangents)"),
    # a tape marker outside split mode (caller-allocated tapes: tests/programs/enzyme_c/api_forms.c)
    ("double f(double x) { return x * x; }\nextern double __enzyme_autodiff(void*, ...);\n"
     "extern int enzyme_allocated, enzyme_tape;\n"
     "double g(double x, void *t) { return __enzyme_autodiff((void*)f, enzyme_allocated, 8, enzyme_tape, t, x); }\n",
     4, "unsupported construct: enzyme_allocated outside __enzyme_augmentfwd / __enzyme_reverse"),
    # the tape missing from __enzyme_reverse
    ("double f(double x) { return x * x; }\nextern double __enzyme_reverse(void*, ...);\n"
     "double g(double x) { return __enzyme_reverse((void*)f, x, 1.0); }\n",
     3, "takes the arguments of 'f', the adjoint of its result, then the tape"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unsupported_is_a_clear_error(src, line, msg, tmp):
    p = tmp / "e.c"
    p.write_text(src)
    r = run_pgcc([p, "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert f"e.c:{line}:" in r.stderr and "error:" in r.stderr and msg in r.stderr, r.stderr


def test_cuda_kernel_gradients_with_cpuify(tmp):
    outs = cpuify_outputs(AD / "cuda_grad.cu", tmp)
    assert outs[0] == outs[1]  # one gradient per thread: the thread count changes nothing
    rows = rows_of(outs[0])
    assert len(rows) == 13 + 8 * 4
    assert_close(rows, 2e-6)
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-2) > len(rows) // 2


def test_reverse_through_kernel_launches_parallel_loops(tmp):
    src = AD / "cuda_host_grad.cu"
    grad = derivative_text(emit_ad(src, tmp, "--cpuify"), "loss")
    assert grad.count("scf.parallel") >= 4  # two launches, forward and reversed
    assert "memref.atomic_rmw addf" in grad  # shadow accumulation where threads read the same element
    for out in cpuify_outputs(src, tmp):
        rows = rows_of(out)
        assert len(rows) == 10
        assert_close(rows, 1e-6)
        assert all(abs(g) > 1e-2 for _, g, _ in rows)


def test_atomic_add_reduction_kernel(tmp):
    for out in cpuify_outputs(AD / "cuda_atomic_grad.cu", tmp):
        rows = rows_of(out)
        assert len(rows) == 5
        assert_close(rows, 1e-10, atol=1e-10)
        assert sum(1 for _, g, _ in rows if abs(g) > 1.0) == 4


def test_time_stepping_with_kernel_launches(tmp):
    for out in cpuify_outputs(AD / "cuda_timesteps.cu", tmp):
        rows = rows_of(out)
        assert len(rows) == 5
        assert_close(rows, 1e-6)
        assert all(abs(g) > 1.0 for _, g, _ in rows)


def test_printing_inside_differentiated_code(tmp):
    """printf has no derivative: it runs in the primal part of both modes; the derivative is unaffected
    (d/dx x^3 = 3x^2 = 12 at 2)."""
    p = tmp / "pr.c"
    p.write_text('#include <stdio.h>\nextern double __enzyme_autodiff(void *, ...);\n'
                 'extern double __enzyme_fwddiff(void *, ...);\n'
                 'double f(double x) { double y = x * x; printf("y=%g\\n", y); return y * x; }\n'
                 'int main(void) { printf("%g %g\\n", __enzyme_autodiff((void *)f, 2.0), '
                 '__enzyme_fwddiff((void *)f, 2.0, 1.0)); return 0; }\n')
    out = run_exe(build_pgcc(p, tmp / "pr"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["y=4", "y=4", "12 12"]


def test_reverse_through_kernels_with_shared_memory_and_barriers(tmp):
    """A shared-memory tree reduction (its halving loop has a constant trip count: a counted loop, reversed
    without a taped count) and a stencil staged in shared memory across barriers in a loop: gradients agree
    with finite differences at 1, 2 and 4 threads, forward mode with reverse mode."""
    src = AD / "cuda_shared_grad.cu"
    grad = derivative_text(emit_ad(src, tmp, "--cpuify"), "loss")
    assert "scf.while" not in grad  # the tree loop became a counted loop
    for out in cpuify_outputs(src, tmp, threads=(1, 2, 4)):
        rows = rows_of(out)
        assert len(rows) == 14
        assert_close(rows, 1e-6)
        assert all(abs(g) > 1e-2 for _, g, _ in rows)
