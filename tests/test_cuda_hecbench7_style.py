"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), seventh set, built with
`pgcc --cpuify -O2` and run at 1 and 2 OpenMP threads against their own host references.

templated_base_views: a constructor run in device code whose base class is a template specialization
(`: ViewBase<T, RANK, Qual, I>(p, e, s)`, the packed tensor accessors of HeCBench tensorAccessor) lost its base
initializer: libclang shows such a base as a TEMPLATE_REF followed by the template arguments (some of them
expressions) and then the construction, where a plain base is a TYPE_REF, so the base was left zeroed and the
kernel read through a null pointer (silently wrong results: FAIL). The base initializer is now the
initializer expression whose type is a base class.

tile_reduce_struct_op: cg::reduce of a struct over a thread_block_tile (HeCBench softmax-online's running max
and sum) did not compile: tile shuffles took only the warp intrinsics' scalar types, where CUDA's take any
trivially copyable type (now exchanged as 32-bit words); a __device__ function given as the reduction operator
is a function pointer (func.constant) held across the shuffles, which barrier elimination refused as "a
per-thread value of type '(i64, i64) -> i64'" (func.constant is now recomputed like any constant) and whose
callee was then erased as an uncalled device function; and std::chrono, which the program uses having included
only the CUDA headers, was undeclared (cooperative_groups.h brings in <chrono>, as nvcc's headers do).

early_exit_two_bounds: `if (x >= w || y >= h) return;` before a loop holding __syncthreads() (HeCBench surfel's
tiled kernel at image sizes that are not multiples of its block) stopped at run time with "(48 of 128 threads
go on)": the canonicalizer turned the guard of the early return into `if (returned) {} else { rest }`, which
barrier elimination took for an if written with code in its else branch and counted; the guard is now put
back in its then form, so the threads that returned no longer hold the barriers back, as on a GPU.

managed_prefetch_locations: cudaMemLocation and the location-based cudaMemPrefetchAsync (CUDA 13's location,
flags, stream form; HeCBench prefetch) and cudaMemAdvise_v2 were "unknown type name 'cudaMemLocation'"; they are
hints that mean nothing when the device's memory is the host's.
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, build_pgcc

CUDA = PROGRAMS / "cuda"


def test_base_initializers_of_template_specializations(tmp):
    build_pgcc(CUDA / "templated_base_views.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "row 17: 3.584157 (want 3.584157)" in out


def test_tile_reduce_of_a_struct_with_a_function_pointer_operator(tmp):
    build_pgcc(CUDA / "tile_reduce_struct_op.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "row 2: column 17 value 9000" in out


def test_early_return_on_either_bound_before_tiled_barriers(tmp):
    build_pgcc(CUDA / "early_exit_two_bounds.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "corner: 1.6425 (want 1.6425)" in out


def test_managed_memory_with_location_hints(tmp):
    build_pgcc(CUDA / "managed_prefetch_locations.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "y[16] after 3 rounds: 25.0, mismatches: 0" in out
