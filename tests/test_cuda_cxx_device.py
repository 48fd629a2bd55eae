"""C++ in device code beyond the programs of tests/programs/cuda_split: inheritance (frontend/cxx_classes.py),
lambdas capturing `this` and init captures, and the constructs that stay clear errors."""

from __future__ import annotations

import pytest

from conftest import run_exe, run_pgcc


def build_and_run(tmp, text, threads=(1, 2)):
    src = tmp / "k.cu"
    src.write_text(text)
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = {run_exe(tmp / "app", threads=t).stdout for t in threads}
    assert len(outs) == 1, outs
    return outs.pop()


def test_aggregate_with_a_base_class(tmp):
    """C++17 aggregate initialization of a derived struct: the base's initializer comes first."""
    out = build_and_run(tmp, "#include <cstdio>\nstruct A { int a; float f; };\nstruct B : A { int b; };\n"
                             "__global__ void k(int *x) {\n  B q = {{x[0], 2.5f}, x[1]};\n  B r{};\n"
                             "  x[2] = q.a + q.b + (int)(2 * q.f) + r.a + r.b;\n}\n"
                             "int main() {\n  int *x; cudaMallocManaged(&x, 12); x[0] = 3; x[1] = 40;\n"
                             "  k<<<1, 1>>>(x); cudaDeviceSynchronize(); printf(\"%d\\n\", x[2]);\n}\n")
    assert out == "48\n"


def test_base_class_default_construction_and_shadowed_fields(tmp):
    """A derived class without constructors default-constructs its base (in-class initializers); a field of
    the derived class shadowing the base's is a different object (`Base::v` names the base's)."""
    out = build_and_run(tmp, "#include <cstdio>\nstruct Base { int v = 5; int w = 1; };\n"
                             "struct Mid : Base { int v = 7; __device__ int both() const { return v * 10 + "
                             "Base::v; } };\n"
                             "struct Top : Mid { __device__ int sum() const { return both() + w + Mid::v; } };\n"
                             "__global__ void k(int *x) { Top t; x[threadIdx.x] = t.sum() + threadIdx.x; }\n"
                             "int main() {\n  int *x; cudaMallocManaged(&x, 64); k<<<1, 16>>>(x);\n"
                             "  cudaDeviceSynchronize(); printf(\"%d %d\\n\", x[0], x[15]);\n}\n")
    assert out == "83 98\n"


@pytest.mark.parametrize("text,line,col,message", [
    ("struct Shape {\n  float s;\n  __device__ virtual float area() const { return s; }\n};\n"
     "struct Sq : Shape { __device__ float area() const override { return s * s; } };\n"
     "__global__ void k(float *x) { Sq q; q.s = x[0]; x[1] = q.area(); }\n"
     "int main() { float *x; cudaMalloc(&x, 8); k<<<1, 1>>>(x); }\n",
     6, 56, "unsupported C++ construct 'virtual function' ('Shape::area': pgcc has no virtual dispatch)"),
    ("struct A { int a; };\nstruct B : virtual A { int b; };\n"
     "__global__ void k(int *x) { B q; q.a = x[0]; x[1] = q.a; }\n"
     "int main() { int *x; cudaMalloc(&x, 8); k<<<1, 1>>>(x); }\n",
     3, 34, "unsupported C++ construct 'virtual base class' ('A')"),
])
def test_unsupported_class_constructs_are_errors(tmp, text, line, col, message):
    src = tmp / "e.cu"
    src.write_text(text)
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"e.cu:{line}:{col}: error: {message}" in r.stderr, r.stderr


def test_lambda_capturing_this_in_a_loop_and_pack_capture_error(tmp):
    """A lambda capturing `this` whose closure is rebuilt in a loop writes through the enclosing object; a pack
    capture stays an error naming it."""
    out = build_and_run(tmp, "#include <cstdio>\nstruct Acc {\n  int total = 0;\n"
                             "  __device__ void add(int n) { for (int k = 1; k <= n; k++) { auto f = [this, k]() "
                             "{ total += k; }; f(); } }\n};\n"
                             "__global__ void k(int *x) { Acc a; a.add(threadIdx.x); x[threadIdx.x] = a.total; }\n"
                             "int main() {\n  int *x; cudaMallocManaged(&x, 64); k<<<1, 16>>>(x);\n"
                             "  cudaDeviceSynchronize(); printf(\"%d %d\\n\", x[1], x[15]);\n}\n")
    assert out == "1 120\n"
    src = tmp / "p.cu"
    src.write_text("template <typename... T> __device__ int sum(T... v) { auto f = [v...]() { return (v + ...); };"
                   " return f(); }\n__global__ void k(int *x) { x[0] = sum(1, 2, 3); }\n"
                   "int main() { int *x; cudaMalloc(&x, 4); k<<<1, 1>>>(x); }\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app2"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "p.cu:1:64: error: unsupported C++ construct 'lambda pack capture'" in r.stderr, r.stderr


def test_device_printf_assert_and_occupancy_queries(tmp):
    """printf and assert in device code (declared __host__ __device__ as nvcc's headers do), and the occupancy
    API (a core holds 2048 threads). A failed device assert prints the assertion and the next synchronization
    returns cudaErrorAssert, as CUDA reports it (the process goes on)."""
    src = tmp / "k.cu"
    src.write_text("#include <cassert>\n#include <cstdio>\n"
                   "__global__ void k(int n) {\n  assert(n < 100);\n  if (threadIdx.x == 0) printf(\"block %d n %d\\n\", "
                   "blockIdx.x, n);\n}\n"
                   "int main(int argc, char **argv) {\n  int grid = 0, block = 0, per_sm = 0;\n"
                   "  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k);\n"
                   "  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, 0);\n"
                   "  k<<<2, 8>>>(argc > 1 ? 500 : 5);\n  cudaError_t e = cudaDeviceSynchronize();\n"
                   "  printf(\"%d %d %d %d\\n\", block, per_sm, grid > 0, e == cudaErrorAssert);\n  return 0;\n}\n")
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app", threads=2)
    assert got.returncode == 0 and sorted(got.stdout.splitlines()) == ["1024 8 1 0", "block 0 n 5", "block 1 n 5"]
    bad = run_exe(tmp / "app", threads=2, args=["x"])
    assert bad.stdout.splitlines()[-1] == "1024 8 1 1" and "Assertion `n < 100` failed" in bad.stderr


def test_grid_sync_orders_the_whole_grid(tmp):
    """Grid-wide synchronization with a cooperative launch: every block's writes before grid.sync() are seen by
    every block after it (the blocks run at once, one thread each, meeting at a real barrier)."""
    src = tmp / "g.cu"
    src.write_text("#include <cooperative_groups.h>\n#include <cstdio>\nnamespace cg = cooperative_groups;\n"
                   "__global__ void k(float *x, float *y, int n) {\n  cg::grid_group grid = cg::this_grid();\n"
                   "  int i = grid.thread_rank();\n  if (i < n) x[i] = i;\n  grid.sync();\n"
                   "  if (i < n) y[i] = x[i] + x[(i + 128) % n];\n}\n"
                   "int main() {\n  int n = 256; float *x, *y, h[256]; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);\n"
                   "  void *args[] = {&x, &y, &n};\n"
                   "  cudaLaunchCooperativeKernel((void *)k, dim3(2), dim3(128), args);\n"
                   "  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);\n  int bad = 0;\n"
                   "  for (int i = 0; i < n; i++) bad += h[i] != i + (i + 128) % n;\n  printf(\"%d\\n\", bad);\n}\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.returncode, got.stdout) == (0, "0\n"), got.stderr
