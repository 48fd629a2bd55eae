"""Programs in the style of the classic CUDA benchmark suite (Rodinia): C/C++ host code with a CPU reference that
prints PASS or FAIL, built with `pgcc --cpuify` and run at OMP_NUM_THREADS=1, 2 and 4 (the outputs must agree)."""

import pytest

from conftest import PROGRAMS, build_gcc, cpuify_outputs, run_exe, run_pgcc

DIR = PROGRAMS / "cuda_rodinia"


@pytest.mark.parametrize("name", ["texture_refs_2d", "spaced_launch_weights", "lu_perimeter_split"])
def test_program_passes_at_every_thread_count(name, tmp):
    outs = cpuify_outputs(DIR / f"{name}.cu", tmp, threads=(1, 2, 4))
    assert outs[0].rstrip().endswith("PASS"), outs[0]
    assert outs[1] == outs[0] and outs[2] == outs[0]


def test_2d_texture_binding_is_an_error_in_host_code_pgcc_compiles(tmp):
    """Under --cuda-host=pgcc the host code is pgcc's, which has no texture reference objects to bind."""
    src = tmp / "bind2d.cu"
    src.write_text("#include <cuda_runtime.h>\ntexture<float, 2> t;\n"
                   "__global__ void k(float *o) { o[threadIdx.x] = tex2D(t, threadIdx.x, 0.5f); }\n"
                   "int main() {\n  float *o, *img; cudaMalloc(&o, 64); cudaMalloc(&img, 64);\n"
                   "  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();\n"
                   "  cudaBindTexture2D(0, t, img, d, 4, 4, 16);\n  k<<<1, 16>>>(o); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "--cuda-host=pgcc", "-o", tmp / "app"])
    assert r.returncode == 1
    assert "7:3: error: unsupported construct: 2-D texture references (cudaBindTexture2D)" in r.stderr
    assert "Traceback" not in r.stderr


def test_c_file_including_omp_h_without_fopenmp_builds_as_with_gcc(tmp):
    """Host C files of these suites include <omp.h> and are built without -fopenmp (the OpenMP pragmas are
    then ignored): gcc finds its omp.h anyway, and so does pgcc."""
    src = tmp / "serial_part.c"
    src.write_text("#include <stdio.h>\n#include <omp.h>\n\n"
                   "static float sum_sq(const float *v, int n) {\n  float s = 0.0f;\n"
                   "#pragma omp parallel for\n  for (int i = 0; i < n; i++)\n    s += v[i] * v[i];\n  return s;\n}\n\n"
                   "int main(void) {\n  float v[100];\n  for (int i = 0; i < 100; i++)\n    v[i] = i * 0.5f;\n"
                   "#ifdef _OPENMP\n  puts(\"openmp\");\n#endif\n  printf(\"%.2f\\n\", sum_sq(v, 100));\n  return 0;\n}\n")
    want = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app")
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)

