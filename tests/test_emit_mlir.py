"""--emit=mlir output is upstream MLIR (mlir-opt parses it) and keeps affine loops affine."""

import re
import subprocess

import pytest

from conftest import PROGRAMS, run_pgcc
from polygeist_py.toolchain import mlir_tool

AFFINE_KERNELS = ["gemm", "jacobi_2d", "lu", "covariance", "floyd_warshall", "atax", "trisolv", "seidel_2d"]


def emit(src, stage="mlir"):
    r = run_pgcc([src, f"--emit={stage}", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("name", AFFINE_KERNELS)
def test_mlir_parses_upstream_and_loops_are_affine(name):
    text = emit(PROGRAMS / "polybench" / f"{name}.c")
    r = subprocess.run([mlir_tool("mlir-opt"), "--verify-diagnostics", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:2000]
    assert "affine.for" in text
    assert re.search(r"affine\.(load|store)", text)
    # the kernel's loops are affine: no scf loop appears inside the kernel function
    kernel = text[text.index("func.func private @kernel_"):] if "func.func private @kernel_" in text else text
    kernel = kernel[: kernel.find("\n  }\n") + 4]
    assert "scf.while" not in kernel and "scf.for" not in kernel


def test_linearized_subscript_stays_affine(tmp):
    src = tmp / "lin.c"
    src.write_text("void k(int n, double *A, double *x) {\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n"
                   "      x[i] += A[i * n + j];\n}\n")
    text = emit(src)
    assert re.search(r"affine\.load %\w+\[%\w+ \* symbol\(%\w+\) \+ %\w+\]", text), text


def test_locations_point_to_source(tmp):
    src = tmp / "loc.c"
    src.write_text("int f(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += i;\n  return s;\n}\n")
    text = emit(src)
    assert '"' + str(src) + '":3:3' in text or f'loc("{src}":3:3)' in text


def test_scalars_are_ssa_loop_carried(tmp):
    src = tmp / "ssa.c"
    src.write_text("double f(int n, double *a) {\n  double s = 0;\n  for (int i = 0; i < n; i++)\n"
                   "    s += a[i];\n  return s;\n}\n")
    text = emit(src)
    assert "iter_args" in text
    assert "memref.alloca" not in text
