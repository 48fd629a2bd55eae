"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), third set, built with
`pgcc --cpuify -O2` and run at 1, 2 and 4 OpenMP threads against their own CPU references.

pooled_directed_casts: the stream-ordered memory pool API (cudaMemPool_t, cudaDeviceGetDefaultMemPool,
cudaMemPoolSetAttribute/GetAttribute, cudaMallocFromPoolAsync, cudaDevAttrMemoryPoolsSupported) was undeclared
(HeCBench streamOrderedAllocation: "unknown type name 'cudaMemPool_t'"), and so were the type-casting intrinsics
with directed rounding (__double2uint_rd, __ll2float_ru, __ull2double_rz, __double2float_rd, ...: HeCBench
intrinsics-cast), and so were the loads and stores with cache operators (__ldcs, __stcs, __ldcg, __ldcv, ...:
HeCBench layernorm's "use of undeclared identifier '__stcs'"). Every conversion is compared bit for bit with the
host's conversion under fesetround.
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, run_pgcc

CUDA = PROGRAMS / "cuda"


def test_memory_pool_directed_rounding_casts_and_cache_hints(tmp):
    r = run_pgcc([CUDA / "pooled_directed_casts.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for out in assert_passes(tmp / "app"):
        assert "release threshold kept, 0 of 64" in out


def test_reference_member_of_a_device_class_template(tmp):
    """A class template used in device code with a reference member (cub's WarpExchange keeps `TempStorage &`):
    was "unsupported conversion to 'WarpTranspose<int, 4, 32>::Storage &'" at the member initializer, then an
    error naming the construct; the member now holds the storage's address (HeCBench warpexchange)."""
    r = run_pgcc([CUDA / "warp_exchange_ref_member.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")
