"""examples/cuda/*.cu run with --cpuify (no CUDA toolkit: pgcc parses with its own headers and a bogus
--cuda-path) and print exactly what the plain-C version of the same algorithm prints, at 1 and 2 threads."""

import pytest

from conftest import PROGRAMS, ROOT, build_gcc, run_exe, run_pgcc
from test_cuda_sync_examples import SYNC_EXAMPLES

ALL_EXAMPLES = sorted((ROOT / "examples" / "cuda").glob("*.cu"))
# the synchronizing examples are compared (at more sizes and thread counts) in test_cuda_sync_examples.py
EXAMPLES = [e for e in ALL_EXAMPLES if e.stem not in SYNC_EXAMPLES]


@pytest.mark.parametrize("src", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_cpuify_matches_c_reference(src, tmp):
    ref_src = PROGRAMS / "cuda_ref" / (src.stem + ".c")
    ref = run_exe(build_gcc(ref_src, tmp / "ref"))
    assert ref.returncode == 0
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"], env={"PATH": "/usr/bin:/bin", "CUDA_PATH": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert got.returncode == 0, got.stderr
        assert got.stdout == ref.stdout


def test_at_least_four_examples():
    names = {e.stem for e in ALL_EXAMPLES}
    assert {"vector_add", "saxpy", "matmul", "stencil2d"} <= names


SCALE = ("__global__ void scale(float *a, float s, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] *= s;\n}\n"
         "int main() { float *d; cudaMalloc((void **)&d, 64 * sizeof(float));\n"
         "  scale<<<2, 32>>>(d, 2.0f, 64); cudaFree(d); return 0; }\n")


def test_launch_needs_cpuify(tmp):
    (tmp / "scale.cu").write_text(SCALE)
    r = run_pgcc([tmp / "scale.cu", "-o", tmp / "app"])
    assert r.returncode == 1
    assert "--cpuify" in r.stderr and "Traceback" not in r.stderr


def test_cpuify_emits_parallel_block_loop():
    r = run_pgcc([ROOT / "examples" / "cuda" / "vector_add.cu", "--cpuify", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "scf.parallel" in r.stdout and "gpu.launch" not in r.stdout
