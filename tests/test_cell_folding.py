"""Private scalars folded into the array element their final value is stored to (affine/cell_folding.py)."""

import json
import re

from conftest import assert_output_like_gcc, run_pgcc

# An LU factorization with dot products (PolyBench's ludcmp shape): w's final value goes to A[i][j].
CROUT = """
#include <stdio.h>
#ifndef N
#define N 47
#endif
static double A[N][N], b[N], x[N], y[N];

static void kernel(int n, double A[N][N], double b[N], double x[N], double y[N])
{
  double w;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      w = A[i][j];
      for (int k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (int j = i; j < n; j++) {
      w = A[i][j];
      for (int k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (int i = 0; i < n; i++) {
    w = b[i];
    for (int j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (int i = n - 1; i >= 0; i--) {
    w = y[i];
    for (int j = i + 1; j < n; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    b[i] = (i + 1) / (double)N / 2.0 + 4;
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % N) / N + (i == j ? N : 0);
  }
  kernel(N, A, b, x, y);
  for (int i = 0; i < N; i++)
    printf("%.17g %.17g\\n", x[i], A[i][(i * 5) % N]);
  return 0;
}
"""

# w's final value feeds a store that also reads the old A[i][j]: folding would clobber that value.
READS_OLD = """
void k(int n, double A[n][n], double B[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double w = 0.0;
      for (int k = 0; k < n; k++)
        w += B[i][k] * A[k][j];
      A[i][j] = 0.5 * A[i][j] + w;
    }
}
"""


def _kernel_scop(tmp, text, function):
    src = tmp / "k.c"
    src.write_text(text)
    r = run_pgcc([src, "-O3", "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return next(s for s in json.loads(r.stdout)["scops"] if s["function"] == function)


def test_crout_scalars_become_array_elements(tmp):
    scop = _kernel_scop(tmp, CROUT, "kernel")
    written = [re.search(r"-> (A\d+)\[", st["writes"]).group(1) for st in scop["statements"]]
    arrays = scop["arrays"]
    # no statement writes a scalar: w lives in A[i][j], y[i] and x[i] in turn
    assert all("x" in arrays[a] for a in written), (written, arrays)
    # the updates of the factorization are A[i][j] updates inside the k loop
    updates = [st for st in scop["statements"] if "i2" in st["domain"]]
    assert len(updates) == 2 and all("[i0, i1]" in st["writes"] for st in updates)
    # with the scalar gone the k loop moves out: the factorization is no longer one sequential (i, j) order
    assert "parallel" in scop["schedule_tree"]


def test_crout_output_unchanged(tmp):
    src = tmp / "crout.c"
    src.write_text(CROUT)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"], ["--fusion=max"]), threads=(1, 2))


def test_store_reading_the_old_element_is_not_folded(tmp):
    scop = _kernel_scop(tmp, READS_OLD, "k")
    scalars = [a for a, t in scop["arrays"].items() if t.startswith("memref<f64>")]
    assert scalars, scop["arrays"]  # w is still a scalar (expanded in the model, not folded)


RECURRENCE = """
void damp(int n, int m, double a[n], double b[m])
{
  for (int i = 1; i < n; i++) {
    double w = a[i - 1];
    for (int j = 0; j < m; j++)
      w = w * 0.5 + b[j];
    a[i] = w;
  }
}
"""


def test_kept_region_gets_its_registers_back(tmp):
    """w folds into a[i]; the schedule keeps the original order, so the stage keeps the code, and a[i] is carried
    through the j loop in a register again (an iter_arg), not loaded and stored in every iteration."""
    scop = _kernel_scop(tmp, RECURRENCE, "damp")
    assert "keeps the original order" in scop["reason"], scop.get("reason")
    assert all("memref<f64>" != t for t in scop["arrays"].values()), scop["arrays"]  # w is folded
    r = run_pgcc([tmp / "k.c", "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("@damp"):]
    # a and b may overlap: the folded code runs under a run-time alias check, the original loops (w in its own
    # storage) otherwise
    folded = body[body.index("scf.if"):body.index("\n    } else {")]
    assert "iter_args" in folded and "memref.alloca" not in folded, body
    assert "memref.alloca" in body[:body.index("scf.if")], body
