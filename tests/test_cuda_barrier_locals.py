"""Locals of a kernel whose memory lives across __syncthreads() (gpu_to_cpu/per_thread_allocas.py): each thread
gets its own slot of a per-block buffer; locals used between two barriers only stay one object per block."""

from __future__ import annotations

from conftest import run_exe, run_pgcc

KERNEL = """#include <cstdio>
__device__ void add(int *p, int v) { *p += v; }
__global__ void k(const int *x, int *y) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int acc = 0;
  add(&acc, x[blockIdx.x * blockDim.x + t]);
  s[t] = acc;
  __syncthreads();
  add(&acc, s[(t + 1) % blockDim.x]);
  y[blockIdx.x * blockDim.x + t] = acc;
}
int main(int argc, char **argv) {
  int threads = argc > 1 ? 32 : 64, *x, *y, ok = 1;
  cudaMallocManaged(&x, 256 * sizeof(int)); cudaMallocManaged(&y, 256 * sizeof(int));
  for (int i = 0; i < 256; i++) x[i] = i * i;
  k<<<256 / threads, threads>>>(x, y); cudaDeviceSynchronize();
  for (int i = 0; i < 256; i++) ok &= y[i] == x[i] + x[i - i % threads + (i % threads + 1) % threads];
  printf("%s\\n", ok ? "PASS" : "FAIL");
  return 0;
}
"""


def test_address_taken_scalar_across_a_barrier_is_per_thread(tmp):
    src = tmp / "k.cu"
    src.write_text(KERNEL)
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        for args in ([], ["x"]):  # the block shape of the launch: 64 or 32 threads
            got = run_exe(tmp / "app", threads=threads, args=args)
            assert got.stdout == "PASS\n", (threads, args, got.stdout, got.stderr)
    r = run_pgcc([src, "--cpuify", "-O2", "-S", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "memref.view" in r.stdout and "memref<i32>" in r.stdout


def test_local_used_between_barriers_only_is_not_privatized(tmp):
    """A local array written and read after the last barrier needs no per-thread slot."""
    src = tmp / "k.cu"
    src.write_text("__global__ void k(const float *x, float *y) {\n  __shared__ float s[32];\n"
                   "  int t = threadIdx.x;\n  s[t] = x[t];\n  __syncthreads();\n  float r[3];\n"
                   "  for (int j = 0; j < 3; j++) r[j] = s[(t + j) % 32];\n  y[t] = r[0] + r[1] * r[2];\n}\n"
                   "int main() { float *x, *y; cudaMalloc(&x, 128); cudaMalloc(&y, 128); k<<<1, 32>>>(x, y); }\n")
    r = run_pgcc([src, "--cpuify", "-O2", "-S", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "memref.view" not in r.stdout and "memref<3xf32>" in r.stdout


def test_local_array_written_before_and_read_after_a_barrier(tmp):
    """(Was an error case of test_errors.py: a local array live across __syncthreads().)"""
    src = tmp / "k.cu"
    src.write_text("#include <cstdio>\n__global__ void k(float *a) {\n  float loc[4];\n"
                   "  for (int j = 0; j < 4; j++) loc[j] = j + threadIdx.x;\n  __syncthreads();\n"
                   "  a[threadIdx.x] = loc[threadIdx.x % 4];\n}\n"
                   "int main() {\n  float *a; cudaMallocManaged(&a, 32 * sizeof(float)); k<<<1, 32>>>(a);\n"
                   "  cudaDeviceSynchronize();\n  printf(\"%g %g\\n\", a[5], a[31]);\n  return 0;\n}\n")
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2, 4):
        assert run_exe(tmp / "app", threads=threads).stdout == "6 34\n"
