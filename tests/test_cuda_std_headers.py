"""C++ standard headers in .cu files: <iostream>, <algorithm>, <vector> parse next to the CUDA headers (the
math declarations pgcc makes host+device no longer clash with the library's host ones); std::min/std::max work
in device code; what pgcc does not translate (iostreams, containers) is a clear error, not a header clash."""

from conftest import run_exe, run_pgcc

KERNEL = r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <algorithm>
#include <iostream>
#include <vector>
__device__ float clamp01(float x) { return std::min(std::max(x, 0.0f), 1.0f); }
__global__ void k(float *a, int n) {
  int i = threadIdx.x;
  if (i < n) a[i] = clamp01(a[i]) + min(i, 3) + fminf(a[i], 0.5f);
}
int main() {
  float h[8], *d;
  for (int i = 0; i < 8; i++) h[i] = i * 0.25f - 0.5f;
  cudaMalloc((void **)&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 8>>>(d, 8);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%g ", h[i]);
  printf("%d\n", std::max(3, std::abs(-4)));
  return 0;
}
"""


def test_std_headers_and_std_min_max_in_device_code(tmp):
    src = tmp / "k.cu"
    src.write_text(KERNEL)
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    want = []
    for i in range(8):
        a = i * 0.25 - 0.5
        want.append(min(max(a, 0.0), 1.0) + min(i, 3) + min(a, 0.5))
    got = run_exe(tmp / "app").stdout.split()
    assert [float(x) for x in got[:8]] == want and got[8] == "4"


def test_iostream_in_cuda_host_code_and_in_cpp_subset(tmp):
    """Under --cpuify a .cu file's host code goes to the host C++ compiler (nvcc's model): iostream works. A
    .cpp file compiled by pgcc itself keeps the C++ subset, where using the standard library's classes is a
    clear error."""
    program = "#include <iostream>\nint main() { std::cout << 2.5 << std::endl; return 0; }\n"
    src = tmp / "io.cu"
    src.write_text(program)
    r = run_pgcc([src, "--cpuify", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "app").stdout == "2.5\n"
    cpp = tmp / "io.cpp"
    cpp.write_text(program)
    r = run_pgcc([cpp, "-o", tmp / "app2"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "io.cpp:2:14: error: unsupported C++ construct 'the C++ standard library" in r.stderr
    assert "cannot overload" not in r.stderr
