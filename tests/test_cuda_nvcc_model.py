"""nvcc's compilation model under --cpuify (polygeist_py/cuda_split.py): device code through pgcc, host C++
through the host compiler, launches through kernel stubs with the host compiler's mangled names.

Programs in tests/programs/cuda_split/ are written like modern self-checking CUDA programs (C++17 host code with
std::vector, <chrono>, <random>, lambdas, iostream, a helper header with an error-checking macro, templated
kernels) and print PASS only when the device results equal their own CPU reference."""

from __future__ import annotations

import subprocess

import pytest

from conftest import PROGRAMS, assert_passes, run_exe, run_pgcc

SPLIT = PROGRAMS / "cuda_split"


@pytest.mark.parametrize("name", ["saxpy_templates", "stencil_constant", "transpose_tiles", "histogram_random",
                                  "particles_struct", "local_arrays_big_grid", "enzyme_device_function",
                                  "reduce_functor_float4", "brace_returns", "sync_count",
                                  "host_template_launches", "struct_arg_rounds", "struct_arg_rounds_byval",
                                  "ldg_clock", "device_cxx", "namespaces_linkage",
                                  "cooperative_block", "nbody_vec3_lambdas", "half_dot_tiles", "tile_shuffles",
                                  "locals_across_barriers", "inheritance_shapes",
                                  "lambdas_this_init", "runtime_tiles", "palette_table_grid",
                                  "last_block_columns", "warp_rows_logsumexp", "macro_dispatch",
                                  "variadic_apply", "shared_window_loop", "cell_neighbors",
                                  "quad_sort_texture", "partial_block_sums",
                                  "constant_params_tracking", "symbol_by_name", "kernel_table_rows",
                                  "box_overlay_args", "periodogram_sincos", "radix_rank_passes",
                                  "section_cascade"])
def test_programs_pass_against_their_cpu_reference(tmp, name):
    r = run_pgcc([SPLIT / f"{name}.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert_passes(tmp / "app")


def symbols(obj):
    out = subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1]: line.split()[-2] for line in out.splitlines() if line.strip()}


def test_kernels_launched_from_another_file(tmp):
    """A kernel defined in one .cu file and launched from another (declared in a header), each compiled with -c
    like `make NVCC="pgcc --cpuify"` does, and linked by pgcc: the launching object refers to the kernel by the
    host compiler's mangled name and the defining object's stub defines exactly that symbol."""
    lib, main = tmp / "lib.o", tmp / "main.o"
    for src, obj in (("kernels_lib.cu", lib), ("kernels_main.cu", main)):
        r = run_pgcc([SPLIT / src, "--cpuify", "-O2", "-c", "-o", obj])
        assert r.returncode == 0, r.stderr
    kernel = "_Z8saturatePfffi"  # saturate(float*, float, float, int)
    assert symbols(main)[kernel] == "U" and symbols(lib)[kernel] == "T"
    assert symbols(lib)["_Z9fill_iotaIiEvPT_S0_i"] == "W"  # a template's stub: weak, as C++ instantiations
    r = run_pgcc([lib, main, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.returncode, got.stdout) == (0, "PASS\n")


def test_constant_launch_shape_gets_a_specialized_branch(tmp):
    """A launch with a constant block shape: the stub launches the kernel with those constants (cpuify's thread
    loops get constant bounds) and, for launches from elsewhere, with the pushed shape."""
    src = tmp / "k.cu"
    src.write_text("__global__ void twice(float *x, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= 2;\n}\n"
                   "int main() { float *x; cudaMalloc(&x, 4000); twice<<<4, 250>>>(x, 1000); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("gpu.launch") == 2
    assert "func.func @_Z5twicePfi(" in r.stdout and "arith.constant 250 : i32" in r.stdout
    assert "arith.constant 1000 : i32" in r.stdout  # the constant argument n, for the specialized copy
    assert "@main" not in r.stdout  # host code is the host compiler's
    # a block shape held in a local dim3 that the host function never changes is a constant too
    src.write_text(src.read_text().replace("twice<<<4, 250>>>(x, 1000)", "dim3 b(125, 2); twice<<<2, b>>>(x, 1000)"))
    r = run_pgcc([src, "--cpuify", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "arith.constant 125 : i32" in r.stdout and r.stdout.count("gpu.launch") == 2


def test_host_compiler_errors_point_into_the_cu_file(tmp):
    src = tmp / "bad.cu"
    src.write_text("#include <vector>\n__global__ void k(int *x) { x[0] = 1; }\n"
                   "int main() {\n  std::vector<int> v(3);\n  return v.size() + undefined_name;\n}\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "bad.cu:5:" in r.stderr and "undefined_name" in r.stderr


def test_cuda_host_pgcc_keeps_one_module(tmp):
    """--cuda-host=pgcc: host and device code in one module compiled by pgcc (the C++ subset)."""
    src = tmp / "k.cu"
    src.write_text("__global__ void one(int *x) { x[threadIdx.x] = 1; }\n"
                   "int main() { int *x; cudaMalloc(&x, 64); one<<<1, 16>>>(x); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "--cuda-host=pgcc", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "func.func @main" in r.stdout


def test_makefile_written_for_nvcc(tmp):
    """`make NVCC="pgcc --cpuify"` on a Makefile for nvcc: -arch/-gencode/-rdc/-lineinfo/-Xcompiler/--use_fast_math,
    separate compilation with -dc, a -dlink step and -lcudart."""
    import shutil

    for f in ("kernels_lib.cu", "kernels_lib.h", "kernels_main.cu", "nvcc.mk"):
        shutil.copy(SPLIT / f, tmp / f)
    pgcc = " ".join(__import__("conftest").pgcc_cmd())
    r = subprocess.run(["make", "-f", "nvcc.mk", f"NVCC={pgcc} --cpuify"], cwd=tmp, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    got = run_exe(tmp / "app", threads=2)
    assert (got.returncode, got.stdout) == (0, "PASS\n")


def test_makefile_linking_with_gcc_and_lcudart(tmp):
    """A Rodinia-style Makefile (`$(CUDA_DIR)/bin/nvcc -c`, then `gcc *.o -L$(CUDA_LIB_DIR) -lcuda -lcudart`)
    with CUDA_DIR=$(pgcc --cuda-home): the toolkit-like directory's nvcc is pgcc --cpuify and its libcudart a
    linker script bringing pgcc's runtime and OpenMP, so the gcc-linked program runs (no LD_LIBRARY_PATH)."""
    import shutil

    for f in ("layer.h", "layer_cuda.cu", "layer_main.c", "gcc_link.mk"):
        shutil.copy(SPLIT / f, tmp / f)
    home = run_pgcc(["--cuda-home"])
    assert home.returncode == 0, home.stderr
    r = subprocess.run(["make", "-f", "gcc_link.mk", f"CUDA_DIR={home.stdout.strip()}"], cwd=tmp,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    env_free = {k: v for k, v in __import__("os").environ.items() if k != "LD_LIBRARY_PATH"}
    for threads in (1, 2, 4):
        got = subprocess.run([str(tmp / "app")], capture_output=True, text=True, timeout=120,
                             env=dict(env_free, OMP_NUM_THREADS=str(threads)))
        assert (got.returncode, got.stdout) == (0, "PASS\n"), (threads, got.stdout, got.stderr)


def test_differentiated_barrier_loop_with_data_dependent_count_inside_a_loop_is_an_error(tmp):
    """__syncthreads() and __shared__ memory (fixed-size or extern, wherever declared) are differentiated
    (ad/gpu_block.py, the programs of tests/test_ad_cuda_device.py). The reverse of a while loop around
    __syncthreads() needs its trip count uniform for --cpuify: counted in a loop-carried value at the function's top
    level; inside another loop the count would be cached per thread, so it is a clear error naming the loop, never
    a derivative computed per thread."""
    src = tmp / "nested.cu"
    src.write_text("extern int enzyme_dup, enzyme_const;\n"
                   "template <typename... T> __device__ void __enzyme_autodiff(void *, T...);\n"
                   "__device__ void f(const double *x, double *y, int rounds) {\n"
                   "  __shared__ double s[64];\n  int t = threadIdx.x;\n  s[t] = x[t];\n  __syncthreads();\n"
                   "  for (int r = 0; r < rounds; r++) {\n"
                   "    for (int w = blockDim.x / 2; w > 0; w >>= 1) {\n"
                   "      if (t < w) s[t] = s[t] * s[t + w];\n      __syncthreads();\n    }\n  }\n"
                   "  y[t] = s[t];\n}\n"
                   "__global__ void g(const double *x, double *dx, double *y, double *dy, int rounds) {\n"
                   "  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, rounds);\n}\n"
                   "int main() { return 0; }\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "nested.cu:9:5: error: unsupported construct: reverse mode through a loop with __syncthreads() and a " \
           "data-dependent trip count inside another loop or branch" in r.stderr, r.stderr


def test_device_queries_and_alignment(tmp):
    """cudaDeviceGetAttribute answers from the device properties, peer access is absent (one device),
    __align__ aligns; the same under both host paths. Device memory is host memory, so the properties the
    unified-memory samples test (pageable memory access, compute mode) say so."""
    src = tmp / "q.cu"
    src.write_text("#include <cstdio>\nstruct __align__(16) Pair { float a, b; };\n"
                   "__global__ void k(Pair *p) { p[threadIdx.x].a = threadIdx.x; }\n"
                   "int main() {\n  int v = 0, can = 1;\n  cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);\n"
                   "  cudaDeviceCanAccessPeer(&can, 0, 1);\n  Pair *p; cudaMalloc(&p, 32 * sizeof(Pair)); k<<<1, 32>>>(p);\n"
                   "  Pair h[32]; cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);\n"
                   "  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);\n"
                   "  int um = prop.managedMemory && prop.pageableMemoryAccess && prop.concurrentManagedAccess &&\n"
                   "           prop.computeMode != cudaComputeModeProhibited;\n"
                   '  printf("%d %d %zu %g %d\\n", v, can, sizeof(Pair), h[31].a, um);\n  return 0;\n}\n')
    for host in ("c++", "pgcc"):
        r = run_pgcc([src, "--cpuify", f"--cuda-host={host}", "-o", tmp / "app"])
        assert r.returncode == 0, r.stderr
        assert run_exe(tmp / "app").stdout == "1024 0 16 31 1\n"


def test_barrier_under_a_thread_condition_is_an_error(tmp):
    """`if (threadIdx.x < 16) __syncthreads();` is an error (CUDA requires the whole block to reach a barrier);
    the guard the walker puts around code after an early `return` is not such a condition."""
    src = tmp / "b.cu"
    src.write_text("__global__ void k(int *x) {\n  if (threadIdx.x < 16) __syncthreads();\n  x[threadIdx.x] = 1;\n}\n"
                   "int main() { int *x; cudaMalloc(&x, 256); k<<<1, 64>>>(x); return 0; }\n")
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "b.cu:2:3: error: unsupported construct: __syncthreads() or a warp intrinsic inside a condition that " \
           "differs between the threads of a block" in r.stderr


def test_runtime_hints_and_unsupported_runtime_calls(tmp):
    """Managed-memory hints, function attributes and stream-ordered allocation run (they mean nothing, or plain
    allocation, on the CPU); cudaLaunchKernel calls the kernel's stub with the unpacked arguments."""
    src = tmp / "h.cu"
    src.write_text("#include <cstdio>\n__global__ void k(float *x) { x[threadIdx.x] = threadIdx.x; }\n"
                   "int main() {\n  float *x; cudaMallocManaged(&x, 128);\n  cudaMemPrefetchAsync(x, 128, 0);\n"
                   "  cudaMemAdvise(x, 128, cudaMemAdviseSetReadMostly, 0);\n"
                   "  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);\n"
                   "  cudaStream_t s; cudaStreamCreate(&s);\n  float *y; cudaMallocAsync(&y, 128, s);\n"
                   "  k<<<1, 32, 0, s>>>(x);\n  cudaStreamSynchronize(s);\n  cudaFreeAsync(y, s);\n"
                   '  printf("%g\\n", x[31]);\n  return 0;\n}\n')
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "app").stdout == "31\n"
    launched = tmp / "l.cu"  # the runtime API's launch: the kernel's stub called with the unpacked arguments
    launched.write_text("#include <cstdio>\n__global__ void k(float *x, float v) { x[threadIdx.x] = v * threadIdx.x; }\n"
                        "int main() {\n  float *x, v = 0.5f; cudaMallocManaged(&x, 128); void *a[] = {&x, &v};\n"
                        "  cudaLaunchKernel((void *)k, dim3(1), dim3(32), a);\n  printf(\"%g\\n\", x[31]);\n}\n")
    r = run_pgcc([launched, "--cpuify", "-o", tmp / "app2"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "app2").stdout == "15.5\n"


def test_static_kernels_of_the_same_name_in_two_files(tmp):
    """`static` kernels, `__device__` functions and `__device__` variables of the same names in two separately
    compiled files have internal linkage, as with nvcc: each file's launches run its own, and the link succeeds."""
    objs = []
    for name in ("static_norms", "static_main"):
        objs.append(tmp / f"{name}.o")
        r = run_pgcc([SPLIT / f"{name}.cu", "--cpuify", "-O2", "-c", "-o", objs[-1]])
        assert r.returncode == 0, r.stderr
    assert symbols(objs[0])["_Z10accumulatePKfPfi"] == "t"  # a local symbol of the file's object
    r = run_pgcc([*objs, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        got = run_exe(tmp / "app", threads=threads)
        assert got.returncode == 0 and got.stdout.endswith("PASS\n"), (threads, got.stdout)


@pytest.mark.parametrize("header,library", [("thrust/device_vector.h", "thrust"),
                                            ("cub/device/device_radix_sort.cuh", "cub"),
                                            ("cublas_v2.h", "cuBLAS"), ("cufft.h", "cuFFT"),
                                            ("curand_kernel.h", "cuRAND")])
def test_toolkit_libraries_are_a_clear_error(tmp, header, library):
    """Including a library of the CUDA toolkit is an error naming the library at the #include, in a .cu file
    (pgcc's parse) and in a .cpp file (the host compiler's), never a missing-header or link error."""
    for suffix in (".cu", ".cpp"):
        src = tmp / f"lib{suffix}"
        src.write_text(f"#include <vector>\n#include <{header}>\nint main() {{ return 0; }}\n")
        r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert f"lib{suffix}:2:10: error: CUDA library not supported: {library} (needs the CUDA toolkit; " \
               f"'{header}')" in r.stderr, r.stderr


def test_lambdas_passed_to_kernels_extended_lambda(tmp):
    """nvcc's --extended-lambda: `__device__` and `__host__ __device__` lambdas passed to kernel templates, written
    in the launch or held in a variable, with by-copy captures of numbers, pointers and structs, a trailing
    return type and comments; the lambda becomes a named class both halves agree on. A by-reference capture
    (host memory) is a clear error at the lambda."""
    src = tmp / "x.cu"
    src.write_text(
        "#include <cstdio>\n#include <vector>\nstruct Params { float scale; int offset; };\n"
        "template <typename F> __global__ void map(float *y, int n, F f) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = f(i);\n}\n"
        "template <typename F> __global__ void update(float *y, int n, F f) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) f(y[i], i);\n}\n"
        "float run(float *d, int n, Params p) {\n"
        "  auto g = [=] __host__ __device__ (int i) -> float {\n    // scaled index\n"
        "    return p.scale * i + p.offset;\n  };\n"
        "  map<<<(n + 63) / 64, 64>>>(d, n, g);\n  return g(2);\n}\n"
        "int main() {\n  const int n = 200;\n  float *d; cudaMalloc(&d, n * 4);\n  Params p{0.5f, 3};\n"
        "  float on_host = run(d, n, p), bias = 1.0f;\n"
        "  update<<<(n + 63) / 64, 64>>>(d, n, [=] __device__ (float &v, int i) { v = v * 2 + bias; });\n"
        "  std::vector<float> h(n);\n  cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost);\n"
        "  bool ok = on_host == 4;\n  for (int i = 0; i < n; i++) ok = ok && h[i] == (0.5f * i + 3) * 2 + 1;\n"
        '  printf("%s\\n", ok ? "PASS" : "FAIL");\n  return !ok;\n}\n')
    r = run_pgcc([src, "--cpuify", "--extended-lambda", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.returncode, got.stdout) == (0, "PASS\n"), threads
    src.write_text(src.read_text().replace("[=] __device__ (float &v", "[&] __device__ (float &v"))
    r = run_pgcc([src, "--cpuify", "--extended-lambda", "-o", tmp / "app"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "x.cu:25:39: error: unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) " \
           "capturing by reference" in r.stderr, r.stderr


def test_cpp_file_with_the_cuda_runtime_and_half_types(tmp):
    """A .cpp file goes to the host compiler with pgcc's CUDA headers on its include path, as nvcc gives it the
    toolkit's: it calls the runtime API and fills __half arrays (the layout device code reads) for a kernel
    wrapper defined in a .cu file; __CUDACC__ is not defined there, as with nvcc."""
    (tmp / "k.cu").write_text(
        "#include <cuda_fp16.h>\n"
        "__global__ void twice(__half *x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) x[i] = x[i] * __float2half(2.0f);\n}\n"
        "void launch_twice(__half *x, int n) { twice<<<(n + 63) / 64, 64>>>(x, n); }\n")
    (tmp / "main.cpp").write_text(
        "#include <cstdio>\n#include <vector>\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
        "#ifdef __CUDACC__\n#error not CUDA\n#endif\n"
        "void launch_twice(__half *x, int n);\n"
        "int main() {\n  const int n = 100;\n  std::vector<__half> h(n);\n"
        "  for (int i = 0; i < n; i++) h[i] = __float2half(i * 0.25f);\n"
        "  __half *d; cudaMalloc(&d, n * sizeof(__half));\n"
        "  cudaMemcpy(d, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice);\n  launch_twice(d, n);\n"
        "  cudaMemcpy(h.data(), d, n * sizeof(__half), cudaMemcpyDeviceToHost);\n  bool ok = true;\n"
        "  for (int i = 0; i < n; i++) ok = ok && __half2float(h[i]) == i * 0.5f;\n"
        '  printf("%s\\n", ok ? "PASS" : "FAIL");\n  return !ok;\n}\n')
    r = run_pgcc([tmp / "k.cu", tmp / "main.cpp", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app", threads=2)
    assert (got.returncode, got.stdout) == (0, "PASS\n")


def test_half_warp_reduction_struct_live_across_shuffles(tmp):
    """A __half (a struct in memory) reduced with __shfl_down_sync in a loop: each thread's object lives across
    the shuffles' barriers, so each thread needs its own (gpu_to_cpu/alloca_hoisting.privatize_kept_allocas; left
    in the serial thread loop, LLVM's vectorizer gave 8 threads one object and the sum was wrong)."""
    src = tmp / "w.cu"
    src.write_text(
        "#include <cstdio>\n#include <cuda_fp16.h>\n"
        "__global__ void k(const __half *x, __half *y) {\n  __half v = x[threadIdx.x];\n"
        "  for (int o = 16; o > 0; o /= 2) v = v + __shfl_down_sync(0xffffffff, v, o);\n"
        "  if (threadIdx.x % 32 == 0) y[threadIdx.x / 32] = v;\n}\n"
        "int main(int argc, char **argv) {\n  __half h[64];\n"
        "  for (int i = 0; i < 64; i++) h[i] = __float2half(i % 4 + i / 32);\n"
        "  __half *x, *y; cudaMalloc(&x, 128); cudaMalloc(&y, 8);\n"
        "  cudaMemcpy(x, h, 128, cudaMemcpyHostToDevice);\n  k<<<1, 64>>>(x, y);\n"
        "  k<<<1, 63 + argc>>>(x, y + 2);  // a block shape known only at run time (the same 64)\n"
        "  __half r[4]; cudaMemcpy(r, y, 8, cudaMemcpyDeviceToHost);\n"
        '  printf("%g %g %g %g\\n", __half2float(r[0]), __half2float(r[1]), __half2float(r[2]), __half2float(r[3]));\n  return 0;\n}\n')
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 4):
        got = run_exe(tmp / "app", threads=threads)
        assert got.stdout == "48 80 48 80\n", (threads, got.stdout)


def test_kernels_and_launches_in_program_headers(tmp):
    """Kernels, device helpers and a host template launching a kernel, all in the program's own headers
    (`ops/scale_ops.h`, which includes `../scale_common.h`): the host compiler sees the headers' host text
    (kernel bodies removed, the launch rewritten), from the .cu file's directory and through -I alike."""
    base = SPLIT / "header_kernels"
    r = run_pgcc([base / "main.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.returncode, got.stdout) == (0, "PASS\n"), (threads, got.stderr)
    (tmp / "main.cu").write_text((base / "main.cu").read_text().replace('"ops/scale_ops.h"', '"scale_ops.h"'))
    r = run_pgcc([tmp / "main.cu", "-I", base / "ops", "--cpuify", "-O2", "-o", tmp / "app2"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app2", threads=2)
    assert (got.returncode, got.stdout) == (0, "PASS\n"), got.stderr


def test_device_assert_reports_cuda_error_assert(tmp):
    """A failed assert() in device code prints the assertion and makes the synchronizations and error queries
    return cudaErrorAssert, sticky as on a GPU, instead of aborting the process; one that holds costs nothing
    visible. The same assert in host code is the C library's."""
    src = tmp / "a.cu"
    src.write_text(
        "#include <cassert>\n#include <cstdio>\n"
        "__global__ void check(const int *v, int n, int limit) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) assert(v[i] < limit);\n}\n"
        "int main() {\n"
        "  int h[64], *d;\n  for (int i = 0; i < 64; i++) h[i] = i;\n"
        "  cudaMalloc(&d, sizeof h);\n  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);\n"
        "  check<<<2, 32>>>(d, 64, 100);\n"
        "  printf(\"%d\\n\", (int)cudaDeviceSynchronize());\n"
        "  check<<<2, 32>>>(d, 64, 62);\n"
        "  cudaError_t e = cudaDeviceSynchronize();\n"
        "  printf(\"%d %d %s\\n\", e == cudaErrorAssert, cudaGetLastError() == cudaErrorAssert, cudaGetErrorString(e));\n"
        "  assert(h[3] == 3);\n  return 0;\n}\n")
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app", threads=2)
    assert got.returncode == 0, got.stderr
    assert got.stdout == "0\n1 1 device-side assert triggered\n"
    failed = [line for line in got.stderr.splitlines() if "Assertion `v[i] < limit` failed" in line]
    assert len(failed) == 2 and all(line.startswith(f"{src}:5:") for line in failed), got.stderr


def test_texture_references_in_an_included_kernel_file(tmp):
    """Legacy 1-D texture references declared in a kernel file that main.cu includes (Rodinia's kmeans layout),
    bound by the host compiler's code with both forms of cudaBindTexture and read by tex1Dfetch in kernels, next
    to `#include <omp.h>`, cuda.h's CUDA_SUCCESS and a dynamically initialized global: nvcc's model, checked
    against the program's CPU reference."""
    r = run_pgcc([SPLIT / "texture_clusters" / "main.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert len(set(assert_passes(tmp / "app"))) == 1


def test_older_nvcc_makefile_flags_and_toolkit_include_dir(tmp):
    """Flags of older nvcc Makefiles (Rodinia's make.config): the toolkit's include directory (`-I$(CUDA_DIR)/
    include`, here a stand-in whose cuda_runtime_api.h would break the build if it were read), -Xptxas with its
    value, --cudart, -keep, -prec-div=, --std=, -lineinfo before a -O; the program still passes."""
    toolkit = tmp / "cuda" / "include"
    toolkit.mkdir(parents=True)
    (toolkit / "cuda_runtime_api.h").write_text('#error "the toolkit header was read"\n')
    (toolkit / "cuda_runtime.h").write_text('#error "the toolkit header was read"\n')
    flags = [f"-I{toolkit}", "-isystem", str(toolkit), "-Xptxas", "-v", "--ptxas-options=-v", "--cudart", "static",
             "-cudart=shared", "-keep", "-prec-div=true", "--std=c++14", "-lineinfo", "-O3", "-lcuda", "-lcudart",
             f"-L{tmp / 'cuda' / 'lib64'}"]
    r = run_pgcc(["--cpuify", SPLIT / "stencil_constant.cu", *flags, "-o", tmp / "app"])
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
    got = run_exe(tmp / "app", threads=2)
    assert got.returncode == 0 and got.stdout.strip().endswith("PASS"), got.stdout
