"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), fourth set, built with
`pgcc --cpuify -O2` and run at 1, 2 and 4 OpenMP threads against their own CPU references.

inverse_error_functions: CUDA's math library beyond the C library (erfinv, erfcinv, normcdf, normcdfinv, erfcx,
cyl_bessel_i0/i1 and their float forms) was undeclared ("use of undeclared identifier 'erfinvf'"); checked against
erf/erfc round trips, libstdc++'s std::cyl_bessel_i and a long double erfcx, tails included.

warp_ptx_packed_atomics: inline PTX reading the special registers %laneid, %warpid and %lanemask_* (the lane-id
helpers of warp-level codes), PTX prefetches and membar went to the x86 assembler ("pgcc: error: the assembler rejects an asm statement:
invalid instruction mnemonic 'mov.u32'", no position); __match_any_sync/__match_all_sync, __dp4a, __vcmpeq4-style
SIMD comparisons and atomicAdd on __half/__half2/__nv_bfloat16 were undeclared or had no overload.

shared_tile_bounds: loop bounds stored into __shared__ variables by every thread and read back (HeCBench knn).

pitched_volumes_streams: pitched 3-D memory, stream priorities and host functions of the runtime API.
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, build_pgcc, run_exe, run_pgcc

CUDA = PROGRAMS / "cuda"


def test_inverse_error_and_normal_distribution_functions(tmp):
    build_pgcc(CUDA / "inverse_error_functions.cu", tmp / "app", extra=("--cpuify",))
    assert_passes(tmp / "app")


def test_ptx_lane_registers_warp_match_packed_bytes_and_half_atomics(tmp):
    build_pgcc(CUDA / "warp_ptx_packed_atomics.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app"):
        assert "mismatches: 0" in out


def test_other_inline_ptx_is_an_error_at_the_statement(tmp):
    """PTX other than a special-register read (fma.rn.f32 here) is an error naming the instruction at the asm
    statement, not an assembler failure without a position."""
    r = run_pgcc([CUDA / "ptx_mma_asm.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "ptx_mma_asm.cu:8:3: error: unsupported construct: inline PTX assembly 'fma.rn.f32' in device code" \
        in r.stderr, r.stderr


def test_loop_bounds_read_back_from_shared_memory_are_counted(tmp):
    """Bounds that every thread stores into __shared__ variables and reads back in the same stretch between
    barriers were taken as uniform (a load at one address), then cached per thread and refused: "non-uniform
    barrier" at the loop (HeCBench knn). They are per-thread values now, and the loop's condition is counted over
    the block at run time (a for loop becomes a while loop for that); a block-strided loop whose trip count
    differs between threads stops with the loop's position."""
    src = CUDA / "shared_tile_bounds.cu"
    build_pgcc(src, tmp / "app", extra=("--cpuify",))
    assert_passes(tmp / "app")
    got = run_exe(tmp / "app", threads=2, args=("40",))
    assert got.returncode != 0 and "PASS" not in got.stdout
    assert "shared_tile_bounds.cu:27:3: error:" in got.stderr and "8 of 16 threads go on" in got.stderr, got.stderr


def test_pitched_3d_memory_stream_priorities_and_host_functions(tmp):
    """cudaMalloc3D/cudaMemcpy3D/cudaMemset3D/cudaMemset2D, cudaDeviceGetStreamPriorityRange,
    cudaStreamCreateWithPriority, cudaLaunchHostFunc, cudaStreamAddCallback (CUDART_CB), cudaEventDisableTiming
    and cudaFuncGetAttributes were undeclared ("unknown type name 'cudaPitchedPtr'")."""
    build_pgcc(CUDA / "pitched_volumes_streams.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app"):
        assert "mismatches: 0" in out
