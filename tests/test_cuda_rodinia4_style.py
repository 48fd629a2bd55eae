"""Programs in the style of the classic CUDA benchmark suite (Rodinia), fourth round: the constructs of heartwall
and leukocyte (the two programs that read an AVI video) that pgcc rejected, each a C++ host program with a CPU
reference printing PASS or FAIL, built with `pgcc --cpuify` and run at OMP_NUM_THREADS=1, 2 and 4."""

from conftest import PROGRAMS, assert_passes, build_pgcc

DIR = PROGRAMS / "cuda_rodinia"


def test_pointer_into_constant_struct_data_set_in_branches_around_barriers(tmp):
    """heartwall's kernel sets `fp *d_in = &d_unique[bx].d_T[...]` (a pointer, a memref) in the branch of the
    first frame and in the branch of the later frames, which holds __syncthreads(), and uses it after them:
    "a per-thread value of type 'memref<...>' used across __syncthreads()"; and the branches' conditions read a
    field of a __constant__ struct after a branch that writes memory, which was not proven uniform."""
    build_pgcc(DIR / "template_tracking.cu", tmp / "app", extra=("--cpuify",))
    outs = assert_passes(tmp / "app")
    assert "0 differ" in outs[0] and outs[1] == outs[0] and outs[2] == outs[0]


def test_loop_bound_from_loads_before_the_first_barrier(tmp):
    """leukocyte's IMGVF kernel loops `for (tb = 0; tb < max; tb++)` with barriers inside a while loop, `max`
    computed from `m_array[blockIdx.x]` before the first __syncthreads(): the per-thread cache that carried it
    past the first barrier made the bound look per-thread ("non-uniform barrier")."""
    build_pgcc(DIR / "mgvf_converge.cu", tmp / "app", extra=("--cpuify",))
    outs = assert_passes(tmp / "app")
    assert "cell 1: 24x24" in outs[0] and outs[1] == outs[0] and outs[2] == outs[0]
