"""CUDA programs in the style of the HeCBench collection's self-checking codes (tests/programs/cuda/), each built
with `pgcc --cpuify -O2` and run at 1, 2 and 4 OpenMP threads: every one prints PASS only when its device results
equal its own CPU reference. Each reproduces a construct that a measured HeCBench program needed:
conv_mask_functor: a `__constant__` variable template filled by cudaMemcpyToSymbol(mask<T>, ...) (an internal
error before) and an empty functor class passed by value to a kernel among many arguments (no argument slot, as
g++ passes it: the kernel read the later arguments from the wrong places and crashed);
early_exit_tiles: threads that `return` before the block's __syncthreads(), also before a __device__ function
holding barriers in a loop (compile errors before: such threads no longer hold a GPU block's barriers back), and
host memory registered with cudaHostRegister (zero-copy);
shared_column_counts: per-thread histograms in a `__shared__` column (`counts[bin][tid]++` after an early return:
a compile error before, lockstep order was imposed on each thread's update of its own element) next to a
cascade that does need the lockstep read-before-write order."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, assert_passes, run_pgcc

CUDA = PROGRAMS / "cuda"


@pytest.mark.parametrize("name", ["conv_mask_functor", "early_exit_tiles", "shared_column_counts"])
def test_program_passes_against_its_cpu_reference(tmp, name):
    r = run_pgcc([CUDA / f"{name}.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")
