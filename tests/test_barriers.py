"""Barrier elimination (--cpuify): each kernel's result is checked against CUDA semantics computed in Python,
at 1 and 2 OpenMP threads, and the emitted MLIR is checked for what gets cached across barriers."""

import re

import pytest

from conftest import PROGRAMS, cpuify_outputs, run_pgcc

HOST = """#include <stdio.h>
#include <stdlib.h>
{kernel}
int main(void) {{
  int n = {n};
  int *a = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) {{ a[i] = (i * 37) % 101; out[i] = -1; }}
  int *da, *dout;
  cudaMalloc((void **)&da, n * sizeof(int));
  cudaMalloc((void **)&dout, n * sizeof(int));
  cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dout, out, n * sizeof(int), cudaMemcpyHostToDevice);
  k<<<{grid}, {block}{shared}>>>(da, dout, n);
  cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%d\\n", out[i]);
  return 0;
}}
"""

B = 16  # threads per block in the cases below


def blocks(a, fn):
    """Apply fn(block_values) -> block_results to each block of B consecutive elements."""
    return [r for s in range(0, len(a), B) for r in fn(a[s:s + B])]


CASES = {
    # store / sync / load: read another thread's element
    "store_sync_load": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                        "s[t] = a[i];\n__syncthreads();\nout[i] = s[15 - t];",
                        lambda a: blocks(a, lambda v: v[::-1])),
    # load / sync / store: every thread reads its neighbour before anyone overwrites it
    "load_sync_store": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                        "s[t] = a[i];\n__syncthreads();\nint v = s[(t + 1) % 16];\n__syncthreads();\n"
                        "s[t] = v;\n__syncthreads();\nout[i] = s[t] * 2;",
                        lambda a: blocks(a, lambda v: [2 * v[(t + 1) % 16] for t in range(16)])),
    # store / sync / store: the second store wins everywhere
    "store_sync_store": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                         "s[t] = a[i];\n__syncthreads();\ns[(t + 3) % 16] = t;\n__syncthreads();\nout[i] = s[t];",
                         lambda a: blocks(a, lambda v: [(t - 3) % 16 for t in range(16)])),
    # load / sync / load: a value loaded before the barrier is used after it
    "load_sync_load": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                       "s[t] = a[i];\n__syncthreads();\nint v = s[t];\n__syncthreads();\n"
                       "int w = s[15 - t];\nout[i] = v * 1000 + w;",
                       lambda a: blocks(a, lambda v: [v[t] * 1000 + v[15 - t] for t in range(16)])),
    # barrier in a loop: tree reduction (uniform while loop)
    "tree_reduction": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\ns[t] = a[i];\n"
                       "__syncthreads();\nfor (int st = blockDim.x / 2; st > 0; st >>= 1) {\n"
                       "  if (t < st) s[t] += s[t + st];\n  __syncthreads();\n}\nout[i] = s[0] + t;",
                       lambda a: blocks(a, lambda v: [sum(v) + t for t in range(16)])),
    # barrier in a counted loop with a per-thread loop-carried value (running prefix over tiles)
    "loop_carried": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\nint acc = 0;\n"
                     "for (int r = 0; r < 4; r++) {\n  s[t] = a[i] + r;\n  __syncthreads();\n"
                     "  acc += s[(t + r) % 16];\n  __syncthreads();\n}\nout[i] = acc;",
                     lambda a: blocks(a, lambda v: [sum(v[(t + r) % 16] + r for r in range(4)) for t in range(16)])),
    # barrier in a condition that is the same for the whole block
    "uniform_if": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\nout[i] = 0;\n"
                   "if (n > 8) {\n  s[t] = a[i];\n  __syncthreads();\n  out[i] = s[(t + 5) % 16];\n}",
                   lambda a: blocks(a, lambda v: [v[(t + 5) % 16] for t in range(16)])),
    # a loaded value and a recomputable value live across two barriers
    "live_across_two": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                        "int v = a[i] * 3;\nint w = t * 7 + 1;\n__syncthreads();\ns[t] = v;\n__syncthreads();\n"
                        "out[i] = s[(t + 1) % 16] + w + v;",
                        lambda a: blocks(a, lambda v: [3 * v[(t + 1) % 16] + t * 7 + 1 + 3 * v[t] for t in range(16)])),
    # early return before a barrier (threads that left do not wait, as on a GPU)
    "early_return": ("__shared__ int s[16]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\nif (i >= n) return;\n"
                     "s[t] = a[i];\n__syncthreads();\nout[i] = t > 0 ? s[t - 1] : -2;",
                     lambda a: [a[i - 1] if i % 16 else -2 for i in range(len(a))]),
    # extern __shared__ sized by the launch
    "dynamic_shared": ("extern __shared__ int s[]; int t = threadIdx.x, i = blockIdx.x * 16 + t;\n"
                       "s[t] = a[i];\ns[16 + t] = -a[i];\n__syncthreads();\nout[i] = s[15 - t] + s[31 - t] * 2;",
                       lambda a: blocks(a, lambda v: [v[15 - t] - 2 * v[15 - t] for t in range(16)])),
}


def program(name, n):
    body, _ = CASES[name]
    kernel = "__global__ void k(const int *a, int *out, int n) {\n" + body + "\n}\n"
    shared = ", 32 * sizeof(int)" if name == "dynamic_shared" else ""
    return HOST.format(kernel=kernel, n=n, grid=(n + B - 1) // B, block=B, shared=shared)


@pytest.mark.parametrize("name", sorted(CASES))
def test_barrier_semantics(name, tmp):
    n = 75 if name == "early_return" else 64
    src = tmp / f"{name}.cu"
    src.write_text(program(name, n))
    want = CASES[name][1]([(i * 37) % 101 for i in range(n)])
    for out in cpuify_outputs(src, tmp):
        assert [int(x) for x in out.split()] == want


def cached_types(name, tmp):
    """Element types of the per-thread caches (rank-3 allocas) in the --cpuify output."""
    src = tmp / f"{name}.cu"
    src.write_text(program(name, 64))
    r = run_pgcc([src, "--cpuify", "--cuda-host=pgcc", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "gpu.barrier" not in r.stdout and "gpu.launch" not in r.stdout
    return re.findall(r"memref.alloca\([^)]*\)[^:]*: memref<(?:\d+|\?)x(?:\d+|\?)x(?:\d+|\?)x(\w+)>", r.stdout)


def test_only_loaded_value_is_cached(tmp):
    """v = a[i] * 3 is a load (one cache, reloaded after the second barrier rather than cached again);
    w = t * 7 + 1 and the thread index are recomputed."""
    assert cached_types("live_across_two", tmp) == ["i32"]


def test_index_arithmetic_is_recomputed(tmp):
    assert cached_types("store_sync_load", tmp) == []


def test_loop_carried_value_lives_in_a_cache(tmp):
    """acc is carried by a loop with barriers: it lives in per-thread memory; nothing of type index does."""
    types = cached_types("loop_carried", tmp)
    assert types and set(types) == {"i32"}


def test_bool_carried_across_barriers_with_uniform_break(tmp):
    """A per-thread bool lives across the barriers of a loop that is left by a block-uniform `break` (the
    loop counter is then the result of an `if`); the host's serial recomputation agrees at 1, 2, 4 threads."""
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "bool_across_barriers.cu", tmp, threads=(1, 2, 4)):
        assert out.startswith("wrong 0 sum ") and int(out.split()[-1]) > 0


def test_per_thread_break_across_barriers_is_an_error(tmp):
    src = tmp / "per_thread_break.cu"
    text = (PROGRAMS / "cuda_unit" / "bool_across_barriers.cu").read_text()
    src.write_text(text.replace("if (s == steps - 1)", "if (s == steps - 1 - (t & 1))"))
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "error: unsupported construct: __syncthreads() or a warp intrinsic inside a loop or condition that " \
           "differs between the threads of a block" in r.stderr
