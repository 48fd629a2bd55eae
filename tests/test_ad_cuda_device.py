"""Enzyme's GPU form (SC'21) with block-level device code under --cpuify: __enzyme_autodiff in a kernel on a
__device__ function that synchronizes with __syncthreads() and uses __shared__ memory (ad/gpu_block.py: barriers
mirrored in the reverse sweep, shared shadows zeroed by the block, atomic accumulation where threads may collide).

Each program in tests/programs/cuda_split/ checks its derivatives against hand-derived ones or central finite
differences of the primal kernel and prints PASS; each runs with 1, 2 and 4 OpenMP threads (blocks in parallel)."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, assert_passes, run_exe, run_pgcc

SPLIT = PROGRAMS / "cuda_split"


@pytest.mark.parametrize("name", ["enzyme_shared_sum_squares", "enzyme_shared_tree_reduction",
                                  "enzyme_shared_stencil", "enzyme_daxpy_active_scalar", "enzyme_per_thread_pointer",
                                  "enzyme_shared_smoothing", "enzyme_shared_forward", "enzyme_warp_shuffle",
                                  "enzyme_local_array_barrier", "enzyme_shared_atomic_sum",
                                  "enzyme_shared_carried_tree", "enzyme_shared_transpose_2d",
                                  "enzyme_extern_shared",
                                  "enzyme_shared_in_loop"])
def test_block_level_derivatives(tmp, name):
    r = run_pgcc([SPLIT / f"{name}.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_reduction_adjoint_once_per_launch(tmp, opt):
    """The adjoint of a reduction every thread computes alike runs once per launch (gpu_block.defer_to_the_launch):
    right against finite differences over repeated launches of several shapes, 1-D and 2-D, at 1 and 2 threads."""
    r = run_pgcc([SPLIT / "enzyme_launch_uniform_norm.cu", "--cpuify", opt, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app", threads=(1, 2))


def _poly(*terms):
    return {tuple(sorted(m)): c for m, c in terms}


@pytest.mark.parametrize("name, poly, private", [
    ("blockIdx.x * blockDim.x + threadIdx.x", _poly((("tid.x",), 1), (("bid.x", "bdim.x"), 1)), "x"),
    ("... + 1", _poly((("tid.x",), 1), (("bid.x", "bdim.x"), 1), ((), 1)), "x"),
    ("blockIdx.x * 64 + threadIdx.x", _poly((("tid.x",), 1), (("bid.x",), 64)), "x"),
    ("grid-stride loop", _poly((("tid.x",), 1), (("bid.x", "bdim.x"), 1), (("it.0", "bdim.x", "gdim.x"), 1)), "x"),
    ("grid-stride loop, wrong stride", _poly((("tid.x",), 1), (("bid.x",), 64), (("it.0", "gdim.x"), 32)), None),
    ("block-stride loop", _poly((("tid.x",), 1), (("it.0", "bdim.x"), 1)), "x"),
    ("2 * threadIdx.x", _poly((("tid.x",), 2)), None),
    ("threadIdx.x + k", _poly((("tid.x",), 1), (("it.0",), 1)), None),
    ("threadIdx.x + threadIdx.y", _poly((("tid.x",), 1), (("tid.y",), 1)), None),
    ("31 - threadIdx.x", _poly((("tid.x",), -1), ((), 31)), None),
    ("a constant", _poly(((), 3)), None),
])
def test_thread_private_index_forms(name, poly, private):
    """The index forms whose shadow updates need no atomics (ad/gpu_block.py `_thread_pattern`): injective in the
    thread ids, possibly given a launch shape checked at run time; anything else is atomic."""
    from polygeist_py.ad.gpu_block import _shape_condition, _thread_pattern
    pat = _thread_pattern(poly)
    if private is None:
        assert pat is None or pat[0] is None, name
        assert _shape_condition([tuple(sorted(poly.items()))]) is False, name
    else:
        assert pat is not None and pat[0] == private, name
        assert callable(_shape_condition([tuple(sorted(poly.items()))])), name


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_overlapping_pointer_parameters(tmp, opt):
    """Distinct pointer parameters that share memory (no __restrict__): gradients half a buffer apart that
    threads of different blocks add into, an in-place update against finite differences, arrays carved out of
    one allocation, and __restrict__ parameters (ad/gpu_block.py disjoint_shadows, the runtime's
    __pgcc_ad_shadows_disjoint). Adding those adjoints without atomics lost updates with 2 threads. A primal
    passed as its own shadow stops with a message naming the caller and both arguments."""
    r = run_pgcc([SPLIT / "enzyme_overlapping_pointers.cu", "--cpuify", opt, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app", threads=(1, 2))
    bad = run_exe(tmp / "app", args=["shadow-is-primal"])
    assert bad.returncode == 1 and "in 'grad_product', __enzyme_autodiff of 'product': the shadow 'da' is the " \
        "same memory as the primal 'a'" in bad.stderr, bad.stderr


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_thread_ids_through_device_helpers(tmp, opt):
    """The differentiated __device__ function reads threadIdx/blockIdx/blockDim only through helpers it calls
    (tests/programs/cuda_split/enzyme_device_helpers.cu: colliding atomics into bins, a shared tile read at a
    negative offset; float and double): the helpers, inlined into the derivative, are not left outside the launch
    (was "kernel code outside a launch"), and the gradients match the analytic ones."""
    r = run_pgcc([SPLIT / "enzyme_device_helpers.cu", "--cpuify", opt, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app", threads=(1, 2))


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_sc21_form_combined(tmp, opt):
    """The SC'21 form with a __device__ function reading threadIdx/blockIdx/blockDim, a __shared__ tile behind
    __syncthreads, a neighbour's element and an active scalar every thread reads (its shadow accumulated
    atomically), in float and double over several blocks (the last partly outside the array): the gradients
    match the hand-derived ones at 1, 2 and 4 OpenMP threads, at -O0 and -O2 (it covers the float form the
    paper's example takes, which enzyme_sc21_float.cu tested at -O2 alone)."""
    r = run_pgcc([SPLIT / "enzyme_sc21_combined.cu", "--cpuify", opt, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app", threads=(1, 2, 4))
