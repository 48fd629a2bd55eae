"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), sixth set, built with
`pgcc --cpuify -O2` and run at 1 and 2 OpenMP threads against their own checks.

block_reduce_partials: CUB's block-wide reduction (`cub::BlockReduce<T, X[, algorithm, Y]>` with `Sum`,
`Sum(x, num_valid)`, `Sum(items[])` and `Reduce(x, cub::Max())`, its TempStorage `__shared__`, alone or in a
union), as HeCBench accuracy, all-pairs-distance and f16sp use it, was the error "CUDA library not supported:
cub" at `#include <cub/cub.cuh>`; pgcc now ships that part of CUB (include/cuda/cub). The program also assigns
integers to `__half` (`h = threadIdx.x; h = -2;`, f16sp's `temp.x = -1`), which was the error "use of
overloaded operator '=' is ambiguous (with operand types '__half' and 'int')": CUDA's headers declare those
assignments.

Any other CUB name stays a clear error naming it (test_cub_names_beyond_block_reduce).
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, build_pgcc, run_pgcc

CUDA = PROGRAMS / "cuda"


def test_cub_block_reduce_and_half_integer_assignment(tmp):
    build_pgcc(CUDA / "block_reduce_partials.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "rows over the limit: 133 (host 133)" in out
        assert "half sum: 224 (host 224), 5u as half: 5" in out


def test_cub_names_beyond_block_reduce(tmp):
    """A CUB algorithm pgcc does not provide is an error naming it at its use, not clang's 'no member named'."""
    src = tmp / "scan.cu"
    src.write_text("#include <cub/cub.cuh>\n"
                   "__global__ void k(int *v) {\n"
                   "  typedef cub::BlockScan<int, 128> Scan;\n"
                   "}\n"
                   "int main() {\n"
                   "  size_t bytes = 0;\n"
                   "  cub::DeviceRadixSort::SortKeys(nullptr, bytes, (int *)0, (int *)0, 10);\n"
                   "  return 0;\n"
                   "}\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "scan.cu:3:16: error: CUDA library not supported: cub::BlockScan (pgcc provides cub::BlockReduce " \
           "only)" in r.stderr, r.stderr
    assert "scan.cu:7:8: error: CUDA library not supported: cub::DeviceRadixSort (pgcc provides " \
           "cub::BlockReduce only)" in r.stderr, r.stderr
