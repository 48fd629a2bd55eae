"""Bad input: clang-style `file:line:col: error:` with the source line and caret, exit 1, no traceback."""

import re

import pytest

from conftest import run_pgcc

CASES = {
    "syntax.c": ("int main(void) { int x = ; return 0; }\n", r"syntax\.c:1:26: error: expected expression"),
    "undeclared.c": ("int main(void) { return y; }\n", r"undeclared\.c:1:25: error: use of undeclared identifier"),
    "divergent_if.cu": ("__global__ void k(float *a) {\n  if (threadIdx.x < 16) {\n    for (int i = 0; i < 3; i++) {\n"
                        "      a[i] = 1;\n      __syncthreads();\n    }\n  }\n}\n"
                        "int main() { k<<<1, 32>>>(0); return 0; }\n",
                        r"divergent_if\.cu:2:3: error: unsupported construct: __syncthreads\(\) or a warp intrinsic inside a condition that "
                        r"differs between the threads"),
    "divergent_loop.cu": ("__global__ void k(float *a) {\n  for (int i = 0; i < threadIdx.x; i++) {\n"
                          "    a[i] = 1;\n    __syncthreads();\n  }\n}\nint main() { k<<<1, 32>>>(0); return 0; }\n",
                          r"divergent_loop\.cu:2:3: error: unsupported construct: __syncthreads\(\) or a warp intrinsic inside a loop or "
                          r"condition that differs"),
    # host code compiled by pgcc itself (with the host compiler, g++ accepts the cast, as it does under nvcc)
    "malloc_into_int.cu": ("int main() { int n = 4;\n  cudaMalloc((void **)&n, 16);\n  return n; }\n",
                           r"malloc_into_int\.cu:2:14: error: unsupported construct: cudaMalloc storing a pointer into "
                           r"'n' of type 'int'", ["--cuda-host=pgcc"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_format(name, tmp):
    src_text, pattern, *flags = CASES[name]
    src = tmp / name
    src.write_text(src_text)
    r = run_pgcc([src, "--cpuify", *(flags[0] if flags else []), "-o", tmp / "x"])
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert re.search(pattern, r.stderr), r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) >= 3 and lines[2].strip() == "^"  # source line, then the caret


def test_missing_file(tmp):
    r = run_pgcc([tmp / "nope.c", "-o", tmp / "x"])
    assert r.returncode == 1 and "error:" in r.stderr and "Traceback" not in r.stderr


def test_no_inputs():
    r = run_pgcc([])
    assert r.returncode == 1 and "no input files" in r.stderr
