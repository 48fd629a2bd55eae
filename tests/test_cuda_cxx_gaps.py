"""C++ in device code that nvcc compiles and pgcc rejected: lambdas passed through function templates (HeCBench
unfold), explicit instantiations of kernel templates, reference members of device classes; each program checks
its results against a CPU version and prints PASS, at OMP_NUM_THREADS=1, 2 and 4."""

from conftest import PROGRAMS, assert_passes, build_pgcc

DIR = PROGRAMS / "cuda_cxx_gaps"


def test_lambdas_through_device_function_templates(tmp):
    """`template <typename F> __device__ void apply(F f, int i) { f(i); }` called with a lambda capturing by
    reference: its closure (reference fields) passed by value was "type 'float &' in a value passed by value in
    the signature of 'apply'"; also by-value captures, a template calling its lambda three times, and a
    `__device__` lambda passed to a kernel template."""
    build_pgcc(DIR / "lambda_apply_unfold.cu", tmp / "app", extra=("--cpuify",))
    outs = assert_passes(tmp / "app")
    assert "0 differ" in outs[0] and outs[1] == outs[0] == outs[2]


def test_explicit_instantiation_of_kernel_templates_for_other_files(tmp):
    """`template __global__ void affine<float, 3>(float *, int, float);` was a host compiler error ("explicit
    instantiation ... but no definition available": the host side keeps only the kernel's declaration); the
    host now declares the instantiation (`extern template`) and the device side gives each specialization a
    stub, which the other file's launches call."""
    build_pgcc(DIR / "kernel_inst_defs.cu", tmp / "app", extra=(DIR / "kernel_inst_main.cu", "--cpuify"))
    outs = assert_passes(tmp / "app")
    assert "0 differ" in outs[0]


def test_reference_members_of_device_classes(tmp):
    """`struct View { float &x; const float &y; }` bound in a constructor, an aggregate `Counter c{hits};` with a
    member `int &count`, a member referring to a __shared__ struct, and such a class passed by value: each was
    "unsupported C++ construct 'reference member'"."""
    build_pgcc(DIR / "ref_member_view.cu", tmp / "app", extra=("--cpuify",))
    outs = assert_passes(tmp / "app")
    assert "0 differ" in outs[0]


def test_fp8_conversions_round_and_saturate_as_the_formats_define(tmp):
    """cuda_fp8.h (was "'cuda_fp8.h' file not found"): __nv_cvt_float_to_fp8/__nv_cvt_double_to_fp8 with
    __NV_NOSAT and __NV_SATFINITE for e4m3 and e5m2, the saturating constructors of __nv_fp8_e4m3/_e5m2 and
    __nv_fp8x4_e4m3, and decoding of all 256 codes, against a reference from the formats' definitions (nearest
    value, ties to the even code; e4m3 overflow to NaN, e5m2 to infinity, or the largest finite value)."""
    build_pgcc(DIR / "fp8_convert.cu", tmp / "app", extra=("--cpuify",))
    outs = assert_passes(tmp / "app")
    assert "4096 values x 6 conversions" in outs[0] and "0 differ" in outs[0]
    assert outs[1] == outs[0] == outs[2]
