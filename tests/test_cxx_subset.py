"""The C++ of CUDA host code: new/delete on arrays of numbers, bool, C++ casts, std:: math; what is not
supported yet (references, classes with new) is an error naming it."""

import re

import pytest

from conftest import PROGRAMS, cpuify_outputs, run_pgcc


def test_new_delete_bool_casts_std_math(tmp):
    # 0+2+...+198 = 9900 on the device, plus the 0.5 of `new double(0.5)`; sqrt(2*8) = 4
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "cxx_new_delete.cu", tmp):
        assert out == "9900.5 100 1 4.000\n"


def test_new_array_assigned_later(tmp):
    (tmp / "a.cu").write_text("#include <cstdio>\nint main() {\n  int n = 6; long *p;\n  p = new long[n];\n"
                              "  for (int i = 0; i < n; i++) p[i] = static_cast<long>(i) * i;\n"
                              "  printf(\"%ld\\n\", p[5] + reinterpret_cast<long *>(p)[4]);\n  delete[] p;\n  return 0;\n}\n")
    r = run_pgcc([tmp / "a.cu", "-o", tmp / "a"])
    assert r.returncode == 0, r.stderr
    import subprocess
    assert subprocess.run([tmp / "a"], capture_output=True, text=True).stdout == "41\n"


@pytest.mark.parametrize("body,pattern", [
    ("int x = 1; int &r = x; r++;", r"2:\d+: error: unsupported construct: variable of type 'int &'"),
    ("float **pp = new float*[3]; delete[] pp;", r"error: unsupported construct: new of 'float \*'"),
    ("struct S { int a; }; S *s = new S; delete s;", r"error: unsupported construct: new of 'S'"),
])
def test_unsupported_cxx_is_an_error(tmp, body, pattern):
    (tmp / "u.cu").write_text("#include <cstdio>\nint main() { " + body + " return 0; }\n")
    r = run_pgcc([tmp / "u.cu", "-o", tmp / "u"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.search(pattern, r.stderr), r.stderr
