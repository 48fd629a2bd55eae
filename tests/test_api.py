"""The Python API: polygeist_py.compile(...) -> Program with MLIR text and JIT callables on numpy arrays."""

import gc

import numpy as np
import pytest

import polygeist_py as pg
from polygeist_py.errors import CompileError

MATMUL = """
void mm(int n, int m, int k, double C[n][m], double A[n][k], double B[k][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[i][j] = 0.0;
      for (int p = 0; p < k; p++)
        C[i][j] += A[i][p] * B[p][j];
    }
}

double dot(int n, const double *x, const double *y) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int isum(int n, const int v[n]) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

void iscale(int n, int *v, int f) {
  for (int i = 0; i < n; i++)
    v[i] *= f;
}

long fixed(double D[4][3]) {
  long c = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) {
      D[i][j] = i * 10 + j;
      c++;
    }
  return c;
}

static int hidden(int x) { return x + 1; }
int uses_hidden(int x) { return hidden(x) * 2; }
"""


@pytest.fixture(scope="module")
def prog():
    return pg.compile(MATMUL)


def seq_dot(x, y):
    s = 0.0
    for a, b in zip(x.tolist(), y.tolist()):
        s += a * b
    return s


def test_functions_and_mlir(prog):
    assert prog.functions == ("mm", "dot", "saxpy", "isum", "iscale", "fixed", "uses_hidden")
    assert "hidden" not in prog  # static
    assert "affine.for" in prog.mlir and "func.func @mm" in prog.mlir
    assert "llvm.func @mm" in prog.lowered_mlir and "affine.for" not in prog.lowered_mlir
    assert prog.signature("dot") == "double dot(int n, const double *x, const double *y)"
    assert prog["mm"] is prog.mm


def test_vla_matmul_matches_numpy(prog):
    rng = np.random.default_rng(0)
    n, m, k = 7, 5, 9
    A = rng.standard_normal((n, k))
    B = rng.standard_normal((k, m))
    C = np.full((n, m), np.nan)
    assert prog.mm(n, m, k, C, A, B) is None
    np.testing.assert_allclose(C, A @ B, rtol=1e-13, atol=1e-13)
    # same summation order as the C loop: bit-exact
    ref = np.array([[seq_dot(A[i], B[:, j].copy()) for j in range(m)] for i in range(n)])
    assert np.array_equal(C, ref)


def test_keyword_arguments(prog):
    A, B = np.ones((2, 3)), np.full((3, 4), 2.0)
    C = np.zeros((2, 4))
    prog.mm(2, 4, 3, C=C, A=A, B=B)
    assert np.array_equal(C, np.full((2, 4), 6.0))


def test_double_result(prog):
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(100), rng.standard_normal(100)
    r = prog.dot(100, x, y)
    assert isinstance(r, float)
    assert r == seq_dot(x, y)
    assert r == pytest.approx(float(np.dot(x, y)), rel=1e-12)
    assert prog.dot(0, x, y) == 0.0


def test_float32_arrays(prog):
    x = np.arange(10, dtype=np.float32)
    y = np.ones(10, dtype=np.float32)
    expect = np.float32(2.5) * x + np.float32(1.0)
    prog.saxpy(10, 2.5, x, y)
    assert y.dtype == np.float32
    assert np.array_equal(y, expect)


def test_int32_arrays_and_int_result(prog):
    v = np.arange(1, 11, dtype=np.int32)
    r = prog.isum(10, v)
    assert isinstance(r, int) and r == 55
    prog.iscale(10, v, -3)
    assert np.array_equal(v, -3 * np.arange(1, 11, dtype=np.int32))
    assert prog.uses_hidden(20) == 42


def test_fixed_size_array_shape(prog):
    D = np.zeros((4, 3))
    assert prog.fixed(D) == 12
    assert np.array_equal(D, np.add.outer(10.0 * np.arange(4), np.arange(3)))
    with pytest.raises(ValueError, match=r"shape \(4, 3\)"):
        prog.fixed(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="shape"):
        prog.fixed(np.zeros(12))


def test_same_function_twice(prog):
    f = prog.dot
    x = np.arange(5.0)
    assert f(5, x, x) == 30.0
    assert f(5, x, x) == 30.0
    assert f(3, x, x) == 5.0


def test_function_keeps_engine_alive():
    f = pg.compile("double twice(double x) { return 2 * x; }").twice
    gc.collect()
    assert f(21) == 42.0
    assert f(1.5) == 3.0


def test_dtype_mismatch_raises_type_error(prog):
    n, m, k = 2, 2, 2
    C, A = np.zeros((n, m)), np.zeros((n, k))
    with pytest.raises(TypeError, match="float64"):
        prog.mm(n, m, k, C, A, np.zeros((k, m), dtype=np.float32))
    with pytest.raises(TypeError, match="int32"):
        prog.isum(3, np.arange(3))  # numpy's default int64 for C int
    with pytest.raises(TypeError, match="numpy array"):
        prog.dot(2, [1.0, 2.0], np.zeros(2))


def test_shape_mismatch_raises_value_error(prog):
    n, m, k = 3, 4, 5
    C, A = np.zeros((n, m)), np.zeros((n, k))
    with pytest.raises(ValueError, match=r"'B'.*shape \(5, 4\).*\(4, 5\)"):
        prog.mm(n, m, k, C, A, np.zeros((m, k)))
    with pytest.raises(ValueError, match="shape"):
        prog.mm(n, m, k, C, A, np.zeros(k * m))
    with pytest.raises(ValueError, match=r"shape \(10,\)"):
        prog.isum(10, np.zeros(9, dtype=np.int32))


def test_non_contiguous_raises(prog):
    n, m, k = 3, 3, 3
    C, A = np.zeros((n, m)), np.zeros((n, k))
    with pytest.raises(ValueError, match="contiguous"):
        prog.mm(n, m, k, C, A, np.zeros((k, m)).T)
    with pytest.raises(ValueError, match="contiguous"):
        prog.dot(3, np.zeros(6)[::2], np.zeros(3))


def test_read_only_array(prog):
    x = np.arange(3.0)
    x.flags.writeable = False
    assert prog.dot(3, x, x) == 5.0  # const pointee: fine
    y = np.zeros(3, np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        prog.saxpy(3, 1.0, np.ones(3, np.float32), y)  # y is written


def test_wrong_argument_count_raises_type_error(prog):
    with pytest.raises(TypeError, match=r"takes 3 arguments but 2 were given.*double dot\(int n, const double \*x"):
        prog.dot(2, np.zeros(2))
    with pytest.raises(TypeError, match=r"void mm\(int n, int m, int k, double C\[n\]\[m\]"):
        prog.mm(1, 1, 1, np.zeros((1, 1)), np.zeros((1, 1)), np.zeros((1, 1)), 7)
    with pytest.raises(TypeError, match="unexpected keyword"):
        prog.dot(1, np.zeros(1), np.zeros(1), z=3)


def test_scalar_checks(prog):
    x = np.zeros(2)
    with pytest.raises(TypeError, match="'n'.*int"):
        prog.dot(2.0, x, x)
    with pytest.raises(ValueError, match="out of range"):
        prog.dot(2 ** 31, x, x)
    with pytest.raises(TypeError, match="real number"):
        prog.saxpy(2, "2", np.zeros(2, np.float32), np.zeros(2, np.float32))
    assert prog.dot(np.int64(2), x, x) == 0.0  # numpy integers are fine


def test_unknown_function(prog):
    with pytest.raises(AttributeError, match="mm, dot"):
        prog.nope
    with pytest.raises(KeyError):
        prog["nope"]


def test_compile_from_file(tmp_path):
    src = tmp_path / "poly.c"
    (tmp_path / "coef.h").write_text("#define C0 3.0\n")
    src.write_text('#include "coef.h"\n'
                   "void poly(int n, const double x[n], double y[n]) {\n"
                   "  for (int i = 0; i < n; i++) y[i] = C0 * x[i] * x[i] + SHIFT;\n}\n")
    prog = pg.compile(path=src, defines={"SHIFT": 1}, locations=True)
    assert prog.functions == ("poly",)
    x = np.linspace(-1, 1, 11)
    y = np.empty_like(x)
    prog.poly(11, x, y)
    assert np.array_equal(y, 3.0 * x * x + 1)
    assert f'loc("{src}":3:' in prog.mlir  # locations name the file and line


def test_defines_and_include_dirs(tmp_path):
    (tmp_path / "n.h").write_text("#define LEN 6\n")
    prog = pg.compile('#include <n.h>\nvoid fill(double a[LEN][K]) {\n'
                      "  for (int i = 0; i < LEN; i++) for (int j = 0; j < K; j++) a[i][j] = i + j;\n}\n",
                      include_dirs=[tmp_path], defines={"K": 2})
    a = np.zeros((6, 2))
    prog.fill(a)
    assert np.array_equal(a, np.add.outer(np.arange(6.0), np.arange(2.0)))
    with pytest.raises(ValueError, match=r"shape \(6, 2\)"):
        prog.fill(np.zeros((2, 6)))


def test_vla_size_expressions():
    prog = pg.compile("void border(int n, int m, double A[n + 2][2 * m]) {\n"
                      "  for (int i = 0; i < n + 2; i++) for (int j = 0; j < 2 * m; j++) A[i][j] = i * 100 + j;\n}\n"
                      "void rows(int n, int m, double (*A)[m]) {\n"
                      "  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) A[i][j] = j;\n}\n")
    A = np.zeros((5, 4))
    prog.border(3, 2, A)
    assert np.array_equal(A, np.add.outer(100.0 * np.arange(5), np.arange(4)))
    with pytest.raises(ValueError, match=r"shape \(5, 4\)"):
        prog.border(3, 2, np.zeros((4, 4)))
    R = np.zeros((3, 4))
    prog.rows(3, 4, R)  # first dimension free, second must be m
    assert np.array_equal(R, np.tile(np.arange(4.0), (3, 1)))
    with pytest.raises(ValueError, match=r"shape \(\?, 5\)"):
        prog.rows(3, 5, R)


def test_function_returning_a_function_pointer_has_its_own_parameters_only():
    prog = pg.compile("static double twice(double x) { return 2 * x; }\n"
                      "double (*pick(int which))(double) { return twice; }\nint add(int a, int b) { return a + b; }\n")
    assert prog.signature("pick") == "double (*)(double) pick(int which)"  # (the result's `double` is not one)
    assert prog.add(2, 3) == 5


def test_compile_error_has_line_info():
    src = "int ok(int x) { return x; }\n\nint bad(int x) {\n  return x +;\n}\n"
    with pytest.raises(CompileError) as ei:
        pg.compile(src)
    e = ei.value
    assert e.line == 4 and e.col > 0
    assert "<source>.c:4:" in str(e) and "return x +;" in str(e)


def test_compile_error_in_file(tmp_path):
    src = tmp_path / "broken.c"
    src.write_text("void f(void) {\n  undeclared_var = 1;\n}\n")
    with pytest.raises(CompileError) as ei:
        pg.compile(path=src)
    assert ei.value.line == 2 and ei.value.file.endswith("broken.c")
    with pytest.raises(FileNotFoundError):
        pg.compile(path=tmp_path / "missing.c")


SCALE_CU = """
__global__ void scale_kernel(int n, float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i];
}

void scale(int n, float *x, float a) {
  scale_kernel<<<(n + 127) / 128, 128>>>(n, x, a);
}
"""


def test_cuda_cpuify_launch_from_numpy():
    prog = pg.compile(SCALE_CU, language="cuda", cpuify=True)
    assert prog.functions == ("scale",)  # kernels are not host-callable
    assert "gpu.launch" in prog.mlir
    n = 1000  # not a multiple of the block size: the bounds check matters
    x = np.arange(n, dtype=np.float32)
    prog.scale(n, x, 0.5)
    assert np.array_equal(x, np.arange(n, dtype=np.float32) * np.float32(0.5))
    prog.scale(n, x, 4.0)  # called again: same engine
    assert np.array_equal(x, np.arange(n, dtype=np.float32) * np.float32(2.0))
    with pytest.raises(TypeError, match="float32"):
        prog.scale(n, np.zeros(n), 1.0)


def test_cuda_from_cu_path(tmp_path):
    src = tmp_path / "scale.cu"
    src.write_text(SCALE_CU)
    prog = pg.compile(path=src, cpuify=True)
    x = np.ones(300, dtype=np.float32)
    prog.scale(300, x, 3.0)
    assert np.array_equal(x, np.full(300, 3.0, np.float32))


def test_cuda_launch_needs_cpuify():
    with pytest.raises(CompileError, match="cpuify"):
        pg.compile(SCALE_CU, language="cuda")


def test_bad_options():
    with pytest.raises(ValueError):
        pg.compile("int f(void) { return 0; }", language="fortran")
    with pytest.raises(ValueError):
        pg.compile("int f(void) { return 0; }", opt_level=7)
    with pytest.raises(ValueError):
        pg.compile()


def test_cuda_cpuify_two_threads():
    """libomp reads OMP_NUM_THREADS once per process: run the JIT in a fresh interpreter at 1 and 2 threads."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np, polygeist_py as pg, sys\n"
            "p = pg.compile(sys.stdin.read(), language='cuda', cpuify=True)\n"
            "x = np.arange(5000, dtype=np.float32)\n"
            "p.scale(5000, x, 3.0)\n"
            "assert np.array_equal(x, np.arange(5000, dtype=np.float32) * np.float32(3.0))\n"
            "print('ok')\n")
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        r = subprocess.run([sys.executable, "-c", code], input=SCALE_CU, capture_output=True, text=True,
                           env=env, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
