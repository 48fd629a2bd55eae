"""Enzyme's GPU form (SC'21) with block-level device code under --cpuify: __enzyme_autodiff in a kernel on a
__device__ function that synchronizes with __syncthreads() and uses __shared__ memory (ad/gpu_block.py: barriers
mirrored in the reverse sweep, shared shadows zeroed by the block, atomic accumulation where threads may collide).

Each program in tests/programs/cuda_split/ checks its derivatives against hand-derived ones or central finite
differences of the primal kernel and prints PASS; each runs with 1, 2 and 4 OpenMP threads (blocks in parallel)."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, run_exe, run_pgcc

SPLIT = PROGRAMS / "cuda_split"


@pytest.mark.parametrize("name", ["enzyme_shared_sum_squares", "enzyme_shared_tree_reduction",
                                  "enzyme_shared_stencil", "enzyme_daxpy_active_scalar", "enzyme_per_thread_pointer"])
def test_block_level_derivatives(tmp, name):
    r = run_pgcc([SPLIT / f"{name}.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        got = run_exe(tmp / "app", threads=threads)
        assert got.returncode == 0 and got.stdout.strip().endswith("PASS"), (threads, got.stdout, got.stderr)
