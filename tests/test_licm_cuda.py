"""Invariant code leaves cpuified CUDA kernels (polygeist_py/licm.py): a kernel whose threads each divide by
`mag(in, n)`, a __device__ function, computes the norm once per launch (before the block loop) instead of once
per thread; the output equals the plain-C program's (gcc -O0) at 1 and 2 threads."""

from __future__ import annotations

import pytest
from mlir import ir

from conftest import build_gcc, run_exe, run_pgcc

KERNEL = r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
__device__ double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
__global__ void normalize(double *__restrict__ out, const double *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] / mag(in, n);
}
int main(void) {
  int n = 1000;
  double *in = (double *)malloc(n * sizeof(double)), *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) in[i] = (i % 7) + 0.5;
  double *din, *dout;
  cudaMalloc(&din, n * sizeof(double)); cudaMalloc(&dout, n * sizeof(double));
  cudaMemcpy(din, in, n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, n * sizeof(double));
  normalize<<<(n + 255) / 256, 256>>>(dout, din, n);
  cudaMemcpy(out, dout, n * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n; i++) s += out[i] * (i + 1);
  printf("%.12g\n", s);
  return 0;
}
"""

REFERENCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
double mag(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return sqrt(s); }
int main(void) {
  int n = 1000;
  double *in = malloc(n * sizeof(double)), *out = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) in[i] = (i % 7) + 0.5;
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
  double s = 0; for (int i = 0; i < n; i++) s += out[i] * (i + 1);
  printf("%.12g\n", s);
  return 0;
}
"""

FLAGS = ("--cpuify", "-O2", "--cuda-path=/nonexistent")


def _walk(op, fn):
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                fn(inner.operation)
                _walk(inner.operation, fn)


GUARDS = ("i < n", "i < n && (i & 1) == 0")  # (the second: not a thread-loop bound, a branch in the thread loop)
GRID_STRIDE = "grid-stride"  # a grid-stride loop over a grid smaller than n (an scf.while: licm.py moves the norm
# out of it after cpuify's interchange, then out of the block loop)
FORMS = (*GUARDS, GRID_STRIDE)


def _kernel(form):
    """The CUDA program of `form` and the guard of its plain-C reference loop."""
    if form != GRID_STRIDE:
        return KERNEL.replace("if (i < n)", f"if ({form})"), form
    body = ("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
            "    out[i] = in[i] / mag(in, n);")
    src = KERNEL.replace("int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = in[i] / mag(in, n);",
                         body).replace("<<<(n + 255) / 256, 256>>>", "<<<3, 64>>>")
    assert src.count("gridDim") == 1 and "<<<3, 64>>>" in src
    return src, "i < n"


@pytest.mark.parametrize("form", FORMS)
def test_norm_leaves_the_kernel(tmp, form):
    src = tmp / "k.cu"
    src.write_text(_kernel(form)[0])
    r = run_pgcc([src, *FLAGS, "-S", "--emit=cpuify", "-o", tmp / "k.mlir"])
    assert r.returncode == 0, r.stderr
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse((tmp / "k.mlir").read_text())
        block_loops = []
        _walk(m.operation, lambda o: block_loops.append(o) if "pgcc.blocks" in o.attributes else None)
        assert block_loops
        for bl in block_loops:
            # the reduction (an scf.for with a result, reading `in`) runs before the block loop, under a guard
            before = []
            for o in _siblings_before(bl):
                _walk(o, lambda x: before.append(x) if x.name == "scf.for" and len(x.results) else None)
            assert before, "the norm is not computed before the block loop"
            # inside the block loop, no thread loop computes it but behind a first-iteration test (the fallback
            # for a launch whose first block or thread skips it: licm.py, _hoist_from_first_iteration)
            per_thread = []

            def unguarded(o, loop):  # (not behind an scf.if whose condition is computed before `loop`)
                p = o.parent
                while p is not None and p.operation != loop:
                    if p.operation.name == "scf.if" and not _inside(p.operation.operands[0], loop):
                        return False
                    p = p.operation.parent
                return True

            def thread_loop(o):
                if o.name == "scf.for" and len(o.results) == 0:
                    _walk(o, lambda x: per_thread.append(x) if x.name == "scf.for" and len(x.results) and
                          unguarded(x, o) else None)
            _walk(bl, thread_loop)
            assert not per_thread, "the norm is still computed per thread"
        # the cleanup's output is a fixpoint: another run moves nothing (no motion undone by canonicalization)
        from polygeist_py.licm import hoist_invariant_code
        assert hoist_invariant_code(m) == 0


def _inside(v, op) -> bool:
    owner = v.owner
    o = (owner.owner if isinstance(owner, ir.Block) else owner).operation
    while o is not None:
        if o == op:
            return True
        o = o.parent.operation if o.parent is not None else None
    return False


def _siblings_before(op):
    out = []
    for o in op.block.operations:
        if o.operation == op:
            break
        out.append(o.operation)
    return out


@pytest.mark.parametrize("form", FORMS)
def test_norm_kernel_prints_what_the_c_reference_prints(tmp, form):
    src = tmp / "k.cu"
    text, guard = _kernel(form)
    src.write_text(text)
    ref = tmp / "ref.c"
    ref.write_text(REFERENCE.replace("for (int i = 0; i < n; i++) out[i]",
                                     f"for (int i = 0; i < n; i++) if ({guard}) out[i]"))
    want = run_exe(build_gcc(ref, tmp / "ref")).stdout
    r = run_pgcc([src, *FLAGS, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for n in (1, 2):
        got = run_exe(tmp / "app", threads=n)
        assert got.returncode == 0, got.stderr
        assert got.stdout == want
