"""The partials of a/b share one reciprocal (ad/partials.py: _divf): d/da = 1/b, d/db = -(a * (1/b)) * (1/b), so
the reverse sweep through ``x[i] / m`` with loop-invariant m has no division in its loop (1/m is hoisted) and
does not recompute the quotient. Checked on the derivative's MLIR and on closed-form values."""

from __future__ import annotations

from conftest import build_pgcc, derivative_text, emit_ad, run_exe

SRC = r"""
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double quot(const double *a, double b, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * a[i] / b; return s; }
int main(void) {
  double a[4] = {1, -2, 3, 0.5}, da[4] = {0, 0, 0, 0}, b = 0.7, sq = 0;
  double db = __enzyme_autodiff((void *)quot, a, da, b, 4);
  for (int i = 0; i < 4; i++) { sq += a[i] * a[i]; printf("%.17g %.17g\n", da[i], 2 * a[i] / b); }
  printf("%.17g %.17g\n", db, -sq / (b * b));
  return 0;
}
"""


def test_reverse_of_a_division_by_an_invariant_has_no_division_in_its_loop(tmp):
    p = tmp / "c.c"
    p.write_text(SRC)
    d = derivative_text(emit_ad(p, tmp, "-O2"), "quot")
    assert d.count("arith.divf") == 1  # 1/b, before the loop
    assert d.index("arith.divf") < d.index("scf.for")
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    for line in out.stdout.splitlines():
        got, want = map(float, line.split())
        assert abs(got - want) <= 4e-16 * 8 * abs(want), (got, want)
