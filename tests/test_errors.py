"""Bad input: clang-style `file:line:col: error:` with the source line and caret, exit 1, no traceback."""

import re

import pytest

from conftest import run_pgcc

CASES = {
    "syntax.c": ("int main(void) { int x = ; return 0; }\n", r"syntax\.c:1:26: error: expected expression"),
    "undeclared.c": ("int main(void) { return y; }\n", r"undeclared\.c:1:25: error: use of undeclared identifier"),
    "goto.c": ("int main(void) { int i = 0;\nl: i++;\n  if (i < 3) goto l;\n  return i; }\n",
               r"goto\.c:2:1: error: unsupported construct: goto and labels"),
    "switch.c": ("int main(int c, char **v) {\n  switch (c) { case 1: return 2; }\n  return 0; }\n",
                 r"switch\.c:2:3: error: unsupported construct: switch"),
    "shared.cu": ("__global__ void k(float *a) {\n  __shared__ float t[32];\n  t[threadIdx.x] = a[threadIdx.x];\n"
                  "  a[threadIdx.x] = t[31 - threadIdx.x];\n}\nint main() { k<<<1, 32>>>(0); return 0; }\n",
                  r"shared\.cu:2:20: error: unsupported construct: __shared__"),
    "sync.cu": ("__global__ void k(float *a) {\n  a[threadIdx.x] = 1;\n  __syncthreads();\n}\n"
                "int main() { k<<<1, 32>>>(0); return 0; }\n", r"sync\.cu:3:3: error: unsupported construct: __syncthreads"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_format(name, tmp):
    src_text, pattern = CASES[name]
    src = tmp / name
    src.write_text(src_text)
    r = run_pgcc([src, "--cpuify", "-o", tmp / "x"])
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
