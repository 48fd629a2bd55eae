"""Legacy CUDA texture references bound to linear memory (texture<>, cudaBindTexture, tex1Dfetch,
cudaUnbindTexture) under --cpuify, against a plain-C reference; unsupported texture forms are clear errors.
(2-D texture references and CUDA arrays: test_cuda_rodinia_style.py.)"""

import pytest

from conftest import PROGRAMS, build_gcc, cpuify_outputs, run_exe, run_pgcc


def test_texture_fetches_match_c_reference(tmp):
    ref = run_exe(build_gcc(PROGRAMS / "cuda_unit" / "texture_ref.c", tmp / "ref"))
    assert ref.returncode == 0, ref.stderr
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "texture.cu", tmp):
        assert out == ref.stdout


UNSUPPORTED = {
    "3d": ("texture<float, 3, cudaReadModeElementType> vol;\n"
           "__global__ void k(float *o) { o[threadIdx.x] = tex3D(vol, threadIdx.x, 0, 0); }\n",
           "3:48: error: unsupported construct: 3-D textures (tex3D)"),
    "normalized": ("texture<unsigned char, 1, cudaReadModeNormalizedFloat> t;\n"
                   "__global__ void k(float *o) { o[threadIdx.x] = tex1Dfetch(t, threadIdx.x); }\n",
                   "cudaReadModeNormalizedFloat"),
}


@pytest.mark.parametrize("form", sorted(UNSUPPORTED))
def test_unsupported_texture_forms_are_errors(form, tmp):
    decl, want = UNSUPPORTED[form]
    src = tmp / f"{form}.cu"
    src.write_text("#include <cuda_runtime.h>\n" + decl +
                   "int main() { float *o; cudaMalloc(&o, 64); k<<<1, 16>>>(o); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1
    assert want in r.stderr
    assert "Traceback" not in r.stderr and "internal" not in r.stderr


def test_cuda_array_api_is_an_error_in_host_code_pgcc_compiles(tmp):
    """CUDA arrays serve texture objects in host code the host compiler compiles (tests/programs/cuda/
    texture_objects.cu); in host code pgcc compiles itself they remain an error."""
    src = tmp / "arr.cu"
    src.write_text("#include <cuda_runtime.h>\nint main() {\n  cudaMallocArray(0, 0, 16); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "--cuda-host=pgcc", "-o", tmp / "app"])
    assert r.returncode == 1
    assert "error: unsupported construct: CUDA arrays (cudaMallocArray, cudaArray)" in r.stderr
