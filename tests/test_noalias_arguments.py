"""Only `restrict` pointer parameters become LLVM `noalias` parameters. The arrays of a scheduled SCoP behind
other pointer parameters may overlap (`smooth(n, steps, a, a + 1)` is valid C): the polyhedral stage checks them
at run time around the scheduled code (tests/test_alias_checks.py), which says nothing about the rest of the
function, so the parameters stay as they are."""

import re

from conftest import assert_output_like_gcc, run_pgcc

PROGRAM = """
#include <stdio.h>
#define N 300
static double a[N], b[N];

static void smooth(int n, int steps, double A[N], double B[N])
{
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.25 * (A[i - 1] + 2.0 * A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.25 * (B[i - 1] + 2.0 * B[i] + B[i + 1]);
  }
}

static void smooth_restrict(int n, int steps, double *restrict A, double *restrict B)
{
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.25 * (A[i - 1] + 2.0 * A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.25 * (B[i - 1] + 2.0 * B[i] + B[i + 1]);
  }
}

static void walk(double *p, double *q)
{
  while (*p > 0.5) {  /* data-dependent control: no SCoP */
    *q += *p;
    p++;
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 13) / 13.0;
    b[i] = 0.0;
  }
  smooth(N, 20, a, b);
  smooth(N / 2, 3, a, a + 1);
  smooth_restrict(N, 2, b, a);
  double s = 0.0;
  walk(a + 1, &s);
  for (int i = 0; i < N; i++)
    s += a[i] * (i + 1);
  printf("%.17g\\n", s);
  return 0;
}
"""


def _signature(llvm_ir, name):
    return re.search(rf"define [^\n]*@{name}\(([^)]*)\)", llvm_ir).group(1)


def test_only_restrict_parameters_are_noalias(tmp):
    src = tmp / "s.c"
    src.write_text(PROGRAM)
    r = run_pgcc([src, "-O3", "--emit=llvm", "-o", "-"])
    assert r.returncode == 0, r.stderr
    smooth = _signature(r.stdout, "smooth")
    assert "noalias" not in smooth, smooth
    assert _signature(r.stdout, "smooth_restrict").count("ptr noalias") == 2
    walk = _signature(r.stdout, "walk")
    assert "noalias" not in walk, walk
    # without the polyhedral stage nothing is assumed
    r = run_pgcc([src, "-O3", "--no-polyhedral", "--emit=llvm", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "noalias" not in _signature(r.stdout, "smooth")


def test_output_unchanged(tmp):
    src = tmp / "s.c"
    src.write_text(PROGRAM)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"]), threads=(1, 2))
