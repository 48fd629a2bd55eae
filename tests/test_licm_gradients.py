"""The gradients of Enzyme's and Tapir's normalization are linear because the normal pipeline hoists `mag` first
(polygeist_py/licm.py, issue 20): `__enzyme_autodiff` of the sequential, OpenMP and while-loop forms. The reversed
OpenMP loop sums the adjoint of the hoisted norm as a reduction (ad/rules_reverse.py, parallel_rule). Checked on
the derivatives' loop nesting (`--emit=ad`: no loop nest is left, where an unhoisted `mag` leaves its loop inside
the loop over i) and on their values against the analytic gradient computed by a gcc -O0 program.

The CUDA form (Enzyme's GPU form: each thread differentiates its own element) computes the primal norm once per
launch, and the adjoint of `mag` runs once per launch too: the threads sum their seeds first and the last thread
of the launch runs it (ad/gpu_block.py, defer_to_the_launch), where it would otherwise cost O(n) per thread."""

from __future__ import annotations

from mlir import ir

from conftest import build_gcc, run_exe, run_pgcc

LOOPS = ("scf.for", "affine.for", "scf.while", "scf.parallel", "affine.parallel")

PROGRAM = r"""
#include <math.h>
#include <stdio.h>
extern void __enzyme_autodiff(void *, ...);
double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void norm_seq(double *restrict out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
void norm_omp(double *restrict out, const double *in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
void norm_while(double *restrict out, const double *in, int n) {
  int i = 0;
  while (i < n) { out[i] = in[i] / mag(in, n); i++; }
}
int main(void) {
  enum { N = 11 };
  double in[N], din[N], out[N], dout[N];
  for (int i = 0; i < N; i++) in[i] = 0.5 + (i * 7 % 5) - 0.3 * (i % 2);
  for (int f = 0; f < 3; f++) {
    for (int i = 0; i < N; i++) { din[i] = 0; dout[i] = 1.0 + (i + f) % 4; }
#ifdef REFERENCE
    /* d/din[k] sum_i dout[i] in[i] / m = dout[k] / m - (sum_i dout[i] in[i]) in[k] / m^3 */
    double m = mag(in, N), dot = 0;
    for (int i = 0; i < N; i++) dot += dout[i] * in[i];
    for (int k = 0; k < N; k++) din[k] = dout[k] / m - dot * in[k] / (m * m * m);
#else
    if (f == 0) __enzyme_autodiff((void *)norm_seq, out, dout, in, din, N);
    if (f == 1) __enzyme_autodiff((void *)norm_omp, out, dout, in, din, N);
    if (f == 2) __enzyme_autodiff((void *)norm_while, out, dout, in, din, N);
#endif
    for (int k = 0; k < N; k++) printf("%.15g\n", din[k]);
  }
  return 0;
}
"""


def _depth(op) -> int:
    best = 0
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                best = max(best, _depth(inner.operation) + (inner.operation.name in LOOPS))
    return best


def test_gradients_are_linear_and_match_the_analytic_gradient(tmp):
    src = tmp / "norm.c"
    src.write_text(PROGRAM)
    r = run_pgcc([src, "-O2", "-fopenmp", "-S", "--emit=ad", "-o", tmp / "ad.mlir"])
    assert r.returncode == 0, r.stderr
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse((tmp / "ad.mlir").read_text())
        depths = {}
        for f in m.body.operations:
            name = ir.StringAttr(f.attributes["sym_name"]).value if f.operation.name == "func.func" else ""
            if ".autodiff" in name:
                depths[name.split(".")[0]] = _depth(f.operation)
            if name.startswith("norm_omp.autodiff"):
                # the adjoint of the hoisted norm is summed over the iterations as a reduction of the reversed
                # parallel loop, not by an atomic add per iteration (which serialized the threads)
                text = str(f)
                assert "memref.atomic_rmw" not in text and "scf.reduce(" in text, text
        assert depths == {"norm_seq": 1, "norm_omp": 1, "norm_while": 1}

    want = run_exe(build_gcc(src, tmp / "ref", extra=("-DREFERENCE",)))
    assert want.returncode == 0, want.stderr
    r = run_pgcc([src, "-O3", "-fopenmp", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    ref = [float(x) for x in want.stdout.split()]
    assert len(ref) == 33 and max(abs(x) for x in ref) > 0.05
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert got.returncode == 0, got.stderr
        vals = [float(x) for x in got.stdout.split()]
        assert len(vals) == len(ref)
        for g, w in zip(vals, ref):
            assert abs(g - w) <= 1e-12 * (1 + abs(w)), (threads, g, w)


KERNEL = r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
__device__ void norm_thread(double *__restrict__ out, const double *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] / mag(in, n);
}
__global__ void norm_grad(double *__restrict__ out, double *__restrict__ dout, const double *__restrict__ in,
                          double *__restrict__ din, int n) {
  __enzyme_autodiff((void *)norm_thread, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}
int main(void) {
  const int n = 300;
  double *in = (double *)malloc(n * 8), *g = (double *)malloc(n * 8), *seed = (double *)malloc(n * 8);
  for (int i = 0; i < n; i++) { in[i] = 0.5 + (i * 7 % 5); seed[i] = 1.0 + i % 4; }
  double *din, *dout, *dev_in, *out;
  cudaMalloc(&din, n * 8); cudaMalloc(&dout, n * 8); cudaMalloc(&dev_in, n * 8); cudaMalloc(&out, n * 8);
  cudaMemcpy(dev_in, in, n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, seed, n * 8, cudaMemcpyHostToDevice);
  cudaMemset(din, 0, n * 8);
  norm_grad<<<(n + 63) / 64, 64>>>(out, dout, dev_in, din, n);
  cudaMemcpy(g, din, n * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 23) printf("%.15g\n", g[i]);
  return 0;
}
"""

KERNEL_REFERENCE = r"""
#include <math.h>
#include <stdio.h>
int main(void) {
  enum { n = 300 };
  double in[n], seed[n], m = 0, dot = 0;
  for (int i = 0; i < n; i++) { in[i] = 0.5 + (i * 7 % 5); seed[i] = 1.0 + i % 4; }
  for (int i = 0; i < n; i++) { m += in[i] * in[i]; dot += seed[i] * in[i]; }
  m = sqrt(m);
  for (int i = 0; i < n; i += 23) printf("%.15g\n", seed[i] / m - dot * in[i] / (m * m * m));
  return 0;
}
"""


def _note_reduction(op, found):
    if op.name == "scf.for" and len(op.results) == 1:
        found.append(op)
    return ir.WalkResult.ADVANCE


def test_cuda_gradient_computes_the_norm_once_per_launch(tmp):
    src = tmp / "k.cu"
    src.write_text(KERNEL)
    r = run_pgcc([src, "--cpuify", "-O2", "-S", "--emit=cpuify", "-o", tmp / "k.mlir"])
    assert r.returncode == 0, r.stderr
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse((tmp / "k.mlir").read_text())
        blocks = []

        def visit(op):
            if "pgcc.blocks" in op.attributes:
                blocks.append(op)
            return ir.WalkResult.ADVANCE
        m.operation.walk(visit)
        assert blocks
        for bl in blocks:
            # the forward sweep's reduction (an scf.for with a result) runs before the block loop (under a guard)
            found = []
            for o in bl.block.operations:
                if o.operation == bl:
                    break
                o.operation.walk(lambda x: _note_reduction(x, found))
            assert found
        # the reverse of `mag` (an innermost loop of atomic additions into the shadow of `in`) runs only behind a
        # test of the launch's arrival count (an atomic increment): in the launch's last thread
        reversed_mag = []
        for op in _nested(m.operation):
            inner = _nested(op)
            thread_loop = _is_thread_loop(op)  # (the per-thread adjoints)
            if op.name == "scf.for" and not thread_loop and not len(op.results) and \
                    not any(x.name in LOOPS for x in inner) and any(
                    x.name == "memref.atomic_rmw" and "addf" in str(x) for x in inner):
                reversed_mag.append(op)
        assert reversed_mag
        for loop in reversed_mag:
            assert _behind_arrival_count(loop), "the adjoint of mag runs in every thread"
    ref = src.with_name("ref.c")
    ref.write_text(KERNEL_REFERENCE)
    want = [float(x) for x in run_exe(build_gcc(ref, tmp / "ref")).stdout.split()]
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert len(want) == 14 and max(abs(w) for w in want) > 0.01
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert got.returncode == 0, got.stderr
        vals = [float(x) for x in got.stdout.split()]
        assert len(vals) == len(want)
        for g, w in zip(vals, want):
            assert abs(g - w) <= 1e-12 * (1 + abs(w)), (threads, g, w)


def _nested(op):
    """Every op nested in `op` (not `op` itself)."""
    out = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                out.append(inner.operation)
                out.extend(_nested(inner.operation))
    return out


def _is_thread_loop(op) -> bool:
    """Whether scf.for `op` is a loop of the cpuified launch itself (over threads or blocks): only loops between it
    and the outermost branches of the function (cpuify's choice between launch shapes, the stub's test for a
    capturing stream), no branch inside the launch's loops."""
    chain, p = [], op.parent
    while p is not None and p.name != "func.func":
        chain.append(p.name)
        p = p.parent
    while chain and chain[-1] == "scf.if":  # (the branches around the whole launch)
        chain.pop()
    return all(name in LOOPS for name in chain)


def _behind_arrival_count(op) -> bool:
    """Whether `op` is inside an scf.if whose condition derives from an atomic integer increment."""
    p = op.parent
    while p is not None and p.name != "func.func":
        if p.name == "scf.if":
            work, seen = [p.operands[0]], 0
            while work and seen < 64:
                seen += 1
                v = work.pop()
                o = v.owner
                if isinstance(o, ir.Block):
                    continue
                if o.name == "memref.atomic_rmw" and "addi" in str(o):
                    return True
                work.extend(o.operands)
        p = p.parent
    return False
