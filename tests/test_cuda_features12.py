"""CUDA C++ features of real programs (issue 22, part 12), each in a self-checking program run under --cpuify at
1 and 2 OpenMP threads: extended lambdas written inside host function templates, directed-rounding intrinsics,
CUDA graphs and stream capture, fp8/fp16/bf16 corners."""

from conftest import PROGRAMS, assert_passes, build_pgcc, compile_error

HERE = PROGRAMS / "cuda_features12"


def _passes(name, tmp):
    return assert_passes(build_pgcc(HERE / name, tmp / "app", extra=("--cpuify",)), threads=(1, 2))


def test_extended_lambda_inside_function_template(tmp):
    """`[=] __device__` / `__host__ __device__` lambdas written in host function templates (type and non-type
    parameters, the lambda in a variable or in the launch) and passed to kernel templates, capturing a struct and
    scalars of the template's types by value: each becomes a class template both halves name alike."""
    _passes("template_lambda.cu", tmp)


def test_extended_lambda_errors(tmp):
    """What stays unsupported is an error at the lambda: a by-reference capture in a function template, a lambda
    in a member function, a lambda naming a type declared in its function (the class is defined outside it)."""
    err = compile_error(tmp / "x.cu", (
        "template <class F> __global__ void k(F f, float *y) { y[threadIdx.x] = f(threadIdx.x); }\n"
        "template <class T> void run(float *y, T s) {\n"
        "  k<<<1, 32>>>([&] __device__ (int i) { return s * i; }, y);\n}\n"
        "int main() { float *y; cudaMalloc(&y, 128); run<float>(y, 2.0f); return 0; }\n"), ("--cpuify",))
    assert "x.cu:3:16: error: unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) " \
           "capturing by reference" in err, err
    err = compile_error(tmp / "y.cu", (
        "template <class F> __global__ void k(F f, float *y) { y[threadIdx.x] = f(threadIdx.x); }\n"
        "struct Solver {\n  float s;\n"
        "  void go(float *y) { float t = s; k<<<1, 32>>>([=] __device__ (int i) { return t; }, y); }\n};\n"
        "int main() { float *y; cudaMalloc(&y, 128); Solver{1.0f}.go(y); return 0; }\n"), ("--cpuify",))
    assert "y.cu:4:49: error: unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) " \
           "in a member function" in err, err
    err = compile_error(tmp / "z.cu", (
        "template <class F> __global__ void k(F f, float *y) { y[threadIdx.x] = f(threadIdx.x); }\n"
        "template <class T> void run(float *y, T s) {\n  using V = T;\n"
        "  k<<<1, 32>>>([=] __device__ (int i) { V v = s; return (float)(v * i); }, y);\n}\n"
        "int main() { float *y; cudaMalloc(&y, 128); run<int>(y, 3); return 0; }\n"), ("--cpuify",))
    assert "z.cu:4:41: error: unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) " \
           "using the type 'V' declared in its function" in err, err


def test_directed_rounding_intrinsics(tmp):
    """__fadd/__fsub/__fmul/__fdiv/__frcp/__fsqrt/__fmaf and __dadd/.../__fma in _rn/_rz/_rd/_ru equal, bit for
    bit, the host's arithmetic under fesetround, on random operands, ties, subnormals, overflows and zeros."""
    _passes("directed_rounding.cu", tmp)


def test_cuda_graphs_stream_capture_and_explicit_nodes(tmp):
    """Stream capture across two streams joined by events (kernel launches with copied arguments, a device copy,
    a host function) replayed by cudaGraphLaunch; an explicit graph of copy, memset, kernel (`(void *)kernel`,
    a kernel template) nodes with dependencies added out of order; the CUDA 11 and 12 cudaGraphInstantiate
    signatures and cudaGraphInstantiateWithFlags; cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate, child
    graphs and cudaGraphClone; captured 2-D copies and memsets, stream callbacks, cudaFreeAsync."""
    _passes("graphs.cu", tmp)


def test_e8m0_scales_raw_pairs_and_bf162_operators(tmp):
    """__nv_fp8_e8m0 and the __nv_cvt_*_e8m0 conversions (round toward zero / up, saturation, NaN, tiny and huge
    inputs, integers), __half2_raw and __nv_bfloat162_raw conversions, fp8 pairs from raw half pairs, and the
    -=, /=, unary -, ++ and comparison operators of __nv_bfloat162 and __half, __hadd_rn/__hmul_rn/__hmul2_rn
    and __half2ull_rz, in device code."""
    _passes("low_precision.cu", tmp)
