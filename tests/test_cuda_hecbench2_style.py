"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), second set, built with
`pgcc --cpuify -O2` and run at 1, 2 and 4 OpenMP threads against their own CPU references.

checked_uniform_loops: loops holding __syncthreads() whose trip counts pgcc cannot prove the same in every thread
(a text search's exit test uniform only by arithmetic on threadIdx.x + k * blockDim.x, as HeCBench ss; a
grid-stride row loop starting at threadIdx.y, as jaccard) were compile errors: their conditions are now counted
over the block at run time (gpu_to_cpu/checked_uniformity.py). A loop whose trip count does differ between
threads (list ranking by pointer jumping, as wyllie) stops the program with the loop's position and exit status 1.

macro_defined_masks: kernels, a __device__ and a __host__ __device__ function defined by macros (HeCBench mask's
style): the host half kept each expansion's call but lost the kernel's declaration (g++: 'was not declared in
this scope'); the bodies are now removed in the macro definitions (cuda_split._macro_device_body_edits).

edge_row_overrun: a kernel whose off-by-one guard writes one row past its cudaMalloc'd buffer (HeCBench
bezier-surface): device blocks now have a GPU allocator's slack, so the host heap around them survives (the
program aborted in free() before).

packed_lane_ops: half2 comparisons (__hgt2, __hbge2) and the SIMD video intrinsics (__vmaxs4, __vminu4,
__vabsdiffu4, __vadd2) of HeCBench relu were undeclared identifiers.
"""

from __future__ import annotations

import re

from conftest import PROGRAMS, assert_passes, run_exe, run_pgcc

CUDA = PROGRAMS / "cuda"


def test_write_past_a_device_buffer_lands_in_slack(tmp):
    r = run_pgcc([CUDA / "edge_row_overrun.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")


def test_packed_lane_intrinsics(tmp):
    r = run_pgcc([CUDA / "packed_lane_ops.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    counts = {out.splitlines()[-2] for out in assert_passes(tmp / "app")}
    assert len(counts) == 1 and int(counts.pop().split()[0]) > 0


def test_kernels_defined_by_macros(tmp):
    r = run_pgcc([CUDA / "macro_defined_masks.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert all(out.splitlines()[-2] == "3 launches" for out in assert_passes(tmp / "app"))


def test_loops_with_barriers_checked_at_run_time(tmp):
    src = CUDA / "checked_uniform_loops.cu"
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")
    for n in (1, 4):
        got = run_exe(tmp / "app", threads=n, args=("rank",))
        assert got.returncode == 1 and "ranked" not in got.stdout
        assert re.search(r"checked_uniform_loops\.cu:70:5: error: __syncthreads\(\) or a warp intrinsic inside a loop "
                         r"or condition that differs between the threads of a block at run time \(\d+ of 256",
                         got.stderr), got.stderr

