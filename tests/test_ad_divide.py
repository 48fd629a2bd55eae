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


FORWARD = r"""
#include <stdio.h>
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double quot(const double *a, double b, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * a[i] / b; return s; }
int main(void) {
  double a[4] = {1, -2, 3, 0.5}, ta[4] = {0.5, 1, -1, 2}, b = 0.7, sq = 0, dot = 0;
  double t = __enzyme_fwddiff((void *)quot, enzyme_dup, a, ta, b, 0.25, 4);
  for (int i = 0; i < 4; i++) { sq += a[i] * a[i]; dot += 2 * a[i] * ta[i]; }
  printf("%.17g %.17g\n", t, dot / b - 0.25 * sq / (b * b));
  return 0;
}
"""


def test_forward_tangent_of_a_division_by_an_invariant_has_no_division_in_its_loop(tmp):
    """Forward mode: the tangent of a/b is (ta - (a/b) tb) * (1/b) (ad/rules_forward.py: quotient_tangent), so
    the reciprocal of an invariant divisor is computed once, before the loop: the loop divides only for the
    primal quotient."""
    p = tmp / "f.c"
    p.write_text(FORWARD)
    mlir = emit_ad(p, tmp, "-O2")
    start = mlir.index("func.func private @quot.fwddiff")
    d = mlir[start:mlir.find("func.func", start + 10) if mlir.find("func.func", start + 10) > 0 else len(mlir)]
    loop = d[min(d.index(k) for k in ("scf.for", "affine.for") if k in d):]
    assert d.count("arith.divf") == 2 and loop.count("arith.divf") == 1, d  # 1/b before it; the quotient a*a/b
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    got, want = map(float, out.stdout.split())
    assert abs(got - want) <= 1e-14 * abs(want), (got, want)
