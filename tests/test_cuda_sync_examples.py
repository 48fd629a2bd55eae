"""CUDA examples that synchronize (__shared__ memory, __syncthreads(), shared and global atomics) run with
--cpuify and print exactly what the plain-C version of the same algorithm prints, at 1, 2 and 4 OpenMP threads,
with the default problem size and with a small odd size that exercises the partial blocks."""

import pytest

from conftest import PROGRAMS, ROOT, build_gcc, run_exe, run_pgcc

EXAMPLES = ROOT / "examples" / "cuda"

# program -> extra argument lists run after the default (no-argument) run
SYNC_EXAMPLES = {
    "matmul_shared": [("17", "33", "5"), ("64", "48", "80")],  # smaller than one tile; exact tiles
    "block_reduce": [("1000",), ("1",)],                       # two blocks; one element
    "prefix_scan": [("513",), ("262144",)],                     # one element past a segment; the maximum
    "hotspot_pyramid": [("7",), ("0",)],                        # a short last launch; no launch at all
    "nw_wavefront": [("1",), ("3",)],                           # a single block; 5 block diagonals
    "nn_layer": [],
    "histogram_atomic": [("1003",), ("3",)],                    # a tail of 3 bytes; only the tail
    "warp_reduce": [("1001",), ("1",)],                         # a partial last warp in 4 blocks; one element
}
THREADS = (1, 2, 4)


@pytest.mark.parametrize("name", sorted(SYNC_EXAMPLES))
def test_sync_example_matches_c_reference(name, tmp):
    ref = build_gcc(PROGRAMS / "cuda_ref" / f"{name}.c", tmp / "ref")
    r = run_pgcc([EXAMPLES / f"{name}.cu", "--cpuify", "-O2", "-o", tmp / "app"],
                 env={"PATH": "/usr/bin:/bin", "CUDA_PATH": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    for args in [()] + SYNC_EXAMPLES[name]:
        want = run_exe(ref, args=args)
        assert want.returncode == 0, want.stderr
        for threads in THREADS:
            got = run_exe(tmp / "app", threads=threads, args=args)
            assert got.returncode == 0, got.stderr
            assert got.stdout == want.stdout, f"args={args} OMP_NUM_THREADS={threads}"


@pytest.mark.parametrize("name", sorted(SYNC_EXAMPLES))
def test_sync_example_barriers_are_eliminated(name):
    """Every example really uses __syncthreads(); after --cpuify no barrier and no launch is left."""
    src = EXAMPLES / f"{name}.cu"
    assert "__syncthreads()" in src.read_text()
    r = run_pgcc([src, "--cpuify", "--emit=cpuify", "-o", "-"],
                 env={"PATH": "/usr/bin:/bin", "CUDA_PATH": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    assert "scf.parallel" in r.stdout
    assert "gpu.barrier" not in r.stdout and "gpu.launch" not in r.stdout
