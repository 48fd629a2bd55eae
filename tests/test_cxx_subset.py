"""The C++ of CUDA host code: new/delete, bool, C++ casts, std:: math, references, classes with methods and
constructors, static members, linking across units; what is not supported (virtual functions, inheritance,
member function templates, the standard library's classes...) is an error naming it.

Programs under programs/cxx are compiled by pgcc and by g++ (-O0 -ffp-contract=off) and their outputs compared;
CUDA programs run with --cpuify at 1 and 2 OpenMP threads."""

import re
import shutil
import subprocess

import numpy as np
import pytest

from conftest import PROGRAMS, build_pgcc, cpuify_outputs, run_exe, run_pgcc

CXX = PROGRAMS / "cxx"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def gxx_output(sources, tmp, name="ref", extra=()):
    """Build `sources` with g++ as the reference compiler and return the program's stdout."""
    exe = tmp / name
    r = subprocess.run(["g++", "-O0", "-ffp-contract=off", *extra, *map(str, sources), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return run_exe(exe).stdout


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


@needs_gxx
def test_new_array_of_row_pointers(tmp):
    """`new int *[rows]` pointing into one `new int[rows * cols]` block (Rodinia pathfinder's wall)."""
    (tmp / "r.cpp").write_text("#include <cstdio>\nint main() {\n  int rows = 4, cols = 5;\n"
                               "  int *data = new int[rows * cols];\n  int **wall = new int *[rows];\n"
                               "  for (int r = 0; r < rows; r++) wall[r] = data + cols * r;\n"
                               "  for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) wall[r][c] = r * 10 + c;\n"
                               "  printf(\"%d %d\\n\", data[7], wall[3][4]);\n  delete[] wall;\n  delete[] data;\n"
                               "  return 0;\n}\n")
    want = gxx_output([tmp / "r.cpp"], tmp)
    assert run_exe(build_pgcc(tmp / "r.cpp", tmp / "r")).stdout == want and want.strip()


@pytest.mark.parametrize("body,pattern", [
    ("float x = 1; float **pp = new float*(&x); delete pp;", r"error: unsupported construct: new of 'float \*'"),
    ("struct S { int a = 1; }; S *s = new S[4]; delete[] s;",
     r"2:\d+: error: unsupported construct: new\[\] of 'S' with a constructor or an initializer"),
])
def test_unsupported_cxx_is_an_error(tmp, body, pattern):
    (tmp / "u.cu").write_text("#include <cstdio>\nint main() { " + body + " return 0; }\n")
    r = run_pgcc([tmp / "u.cu", "-o", tmp / "u"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.search(pattern, r.stderr), r.stderr


# ---------------------------------------------------------------- references and classes, compared with g++
@needs_gxx
@pytest.mark.parametrize("name", ["references", "classes"])
def test_cpp_program_matches_gxx(tmp, name):
    src = CXX / f"{name}.cpp"
    want = gxx_output([src], tmp)
    assert want.count("\n") >= 4
    got = run_exe(build_pgcc(src, tmp / name)).stdout
    assert got == want


# A kernel that uses a class with a constructor and const method, device functions taking references and a
# reference to an element of global memory; appended to a host program whose main becomes host_main().
KERNEL = r"""
struct Acc {
  float s = 0;
  int n;
  __host__ __device__ Acc(int start) : n(start) {}
  __host__ __device__ void add(const float &v) { s += v * v; n++; }
  __host__ __device__ float get() const { return s + n; }
};
__device__ void bump(float &x, const float &y) { x += y; }
__global__ void kern(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Acc a(i);
    for (int k = 0; k <= i % 4; k++) a.add(in[i] + k);
    float r = a.get();
    bump(r, 1.0f);
    float &o = out[i];
    o = r;
  }
}
int main() {
  const int n = 1000;
  float *h = new float[n], *o = new float[n];
  for (int i = 0; i < n; i++) h[i] = 0.5f * (i % 9);
  float *dh, *dout;
  cudaMalloc((void **)&dh, n * sizeof(float));
  cudaMalloc((void **)&dout, n * sizeof(float));
  cudaMemcpy(dh, h, n * sizeof(float), cudaMemcpyHostToDevice);
  kern<<<(n + 127) / 128, 128>>>(dout, dh, n);
  cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; i++) s += o[i];
  printf("kernel %.3f %.3f %.3f\n", s, o[7], o[998]);
  delete[] h;
  delete[] o;
  cudaFree(dh);
  cudaFree(dout);
  return host_main();
}
"""


def kernel_line():
    """What KERNEL prints, computed from its definition in float32."""
    f = np.float32
    total, out = 0.0, {}
    for i in range(1000):
        acc, n, h = f(0), i, f(0.5) * f(i % 9)
        for k in range(i % 4 + 1):
            v = f(h + f(k))
            acc, n = f(acc + v * v), n + 1
        r = f(f(acc + f(n)) + f(1))
        out[i] = r
        total += float(r)
    return f"kernel {total:.3f} {float(out[7]):.3f} {float(out[998]):.3f}\n"


@needs_gxx
@pytest.mark.parametrize("name", ["references", "classes"])
def test_cuda_program_with_kernel(tmp, name):
    """The same host C++ in a .cu file, after a kernel using references and a class, run with --cpuify."""
    src = (CXX / f"{name}.cpp").read_text()
    assert src.count("int main()") == 1
    cu = tmp / f"{name}.cu"
    cu.write_text(src.replace("int main()", "int host_main()") + KERNEL)
    host = gxx_output([CXX / f"{name}.cpp"], tmp)
    for out in cpuify_outputs(cu, tmp):
        assert out == kernel_line() + host


@needs_gxx
def test_rodinia_style_host_program(tmp):
    """A parameter class, `int &`/`float *&` out-parameters, a timer, a kernel in a loop (pgcc --cpuify) against
    the same computation in a host loop (g++ -x c++)."""
    src = CXX / "rodinia_style.cu"
    want = gxx_output(["-x", "c++", src], tmp)
    assert want.startswith("cells=240 ") and "timer ok" in want
    for out in cpuify_outputs(src, tmp):
        assert out == want


@needs_gxx
def test_member_functions_link_across_units(tmp):
    """Out-of-line member functions, a static data member, a C++ free function and an extern "C" one defined in
    one unit and used from another, both compiled by pgcc; the extern "C" one is also called from gcc's C."""
    objs = []
    for name in ("grid", "grid_main"):
        r = run_pgcc(["-c", CXX / f"{name}.cpp", "-I", CXX, "-o", tmp / f"{name}.o"])
        assert r.returncode == 0, r.stderr
        objs.append(tmp / f"{name}.o")
    want = gxx_output([CXX / "grid.cpp", CXX / "grid_main.cpp"], tmp)
    assert want.endswith(" 3 1\n")
    r = run_pgcc([*objs, "-o", tmp / "grid"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "grid").stdout == want
    syms = subprocess.run(["nm", str(objs[0])], capture_output=True, text=True).stdout
    for sym in ("T Grid::Grid", "T Grid::at", "T Grid::total", "B Grid::created", "T weighted", "T grid_version"):
        assert sym in syms
    (tmp / "c_main.c").write_text('#include <stdio.h>\nint grid_version(void);\n'
                                  'int main(void) { printf("%d\\n", grid_version()); return 0; }\n')
    r = subprocess.run(["gcc", str(tmp / "c_main.c"), str(objs[0]), "-o", str(tmp / "cg")], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "cg").stdout == "3\n"


def test_methods_are_internal_with_readable_names(tmp):
    (tmp / "m.cpp").write_text(
        "struct V { double x; V(double a) : x(a) {} V(int a, int b) : x(a + b) {}\n"
        "  double get() const { return x; } double &get() { return x; } };\n"
        "int main() { V a(1.5); V b(1, 2); a.get() = 4; const V &c = b; return (int)(a.get() + c.get()); }\n")
    r = run_pgcc(["-S", "--emit=mlir", tmp / "m.cpp", "-o", "-"])
    assert r.returncode == 0, r.stderr
    for sym in ('@"V::V(double)"', '@"V::V(int, int)"', '@"V::get() const"', '@"V::get()"'):
        assert re.search(r"func\.func private " + re.escape(sym) + r"\(.*#llvm\.linkage<internal>", r.stdout), sym
    exe = build_pgcc(tmp / "m.cpp", tmp / "m")
    assert subprocess.run([exe]).returncode == 7


@pytest.mark.parametrize("suffix", [".cpp", ".cu"])
def test_iostream_header_parses(tmp, suffix):
    """<iostream> (and the C++ headers of C's library) can be included; only using its classes is an error."""
    src = tmp / f"io{suffix}"
    src.write_text("#include <iostream>\n#include <cstdio>\n#include <cstdlib>\n#include <cmath>\n"
                   "#include <cstring>\n#include <sys/time.h>\n"
                   "int main() { char b[8]; strcpy(b, \"ok\"); printf(\"%s %.1f\\n\", b, std::sqrt(16.0)); return 0; }\n")
    assert run_exe(build_pgcc(src, tmp / "io")).stdout == "ok 4.0\n"


# ---------------------------------------------------------------- clear errors
ERRORS = [
    ("struct B {\n  virtual int f() { return 1; }\n};\nint main() { B b; return b.f(); }\n", 2, 15, "'virtual function'"),
    ("struct A { int a; };\nstruct B : A { int b; };\nint main() { return 0; }\n", 2, 12, "'inheritance'"),
    # (free function templates, class templates, member function templates and variable templates are supported:
    # tests/test_ad_cxx.py and programs/enzyme_cxx/)
    ("struct R {\n  int *p;\n  ~R() { p = 0; }\n};\nint main() { R r; return 0; }\n", 3, 3, "'destructor with a body'"),
    ("struct R {\n  int &r;\n};\nint main() { return 0; }\n", 2, 8, "'reference member'"),
    ("struct P {\n  int a;\n  P() : P(1) {}\n  P(int x) : a(x) {}\n};\nint main() { P p; return p.a; }\n", 3, 3,
     "'delegating constructor'"),
    ("struct P {\n  int a;\n  operator int() const { return a; }\n};\nint main() { return 0; }\n", 3, 3,
     "'conversion operator'"),
    ("int f(int x) { return x; }\ndouble f(double x) { return x; }\nint main() { return f(1) + (int)f(1.5); }\n", 2, 8,
     "'overloaded function' ('f')"),
    ("#include <iostream>\nint main() {\n  std::cout << 1;\n  return 0;\n}\n", 3, 3,
     "'the C++ standard library (std::basic_ostream)'"),
    ("#include <vector>\nint main() {\n  std::vector<int> v(3);\n  return 0;\n}\n", 3, 20,
     "'the C++ standard library (std::vector)'"),
]


@pytest.mark.parametrize("suffix", [".cpp", ".cu"])
@pytest.mark.parametrize("src,line,col,what", ERRORS, ids=[e[3].split("'")[1] for e in ERRORS])
def test_unsupported_cxx_construct_is_a_clear_error(tmp, suffix, src, line, col, what):
    """`file:line:col: error: unsupported C++ construct '<what>'`, the source line and a caret; exit status 1."""
    f = tmp / f"e{suffix}"
    f.write_text(src)
    r = run_pgcc([f, "-o", tmp / "e"])
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    first = r.stderr.splitlines()[0]
    assert first == f"{f}:{line}:{col}: error: unsupported C++ construct {what}", r.stderr
