"""Derivative arithmetic carries the ``contract`` fast-math flag (ad/partials.py: contract), so LLVM may fuse the
product and sum of a tangent/adjoint update into one FMA, and accumulations of contributions to one adjoint are
reassociable (vectorized reductions); the primal function and the derivative's copy of the primal code keep the
source's separately rounded arithmetic. Checked on the LLVM IR and on values."""

from __future__ import annotations

import re

from conftest import build_pgcc, run_exe, run_pgcc

SRC = r"""
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
/* Horner: p = p * x + c, both modes carry a tangent/adjoint through a multiply-add chain */
double poly(double x, int n) { double p = 0; for (int k = 0; k < n; k++) p = p * x + (k + 1); return p; }
int main(void) {
  double x = 0.7, want = 0;
  for (int k = 1; k < 8; k++) {  /* d/dx sum_{k<8} (8-k) x^k */
    double t = k * (8.0 - k);
    for (int j = 1; j < k; j++) t *= x;
    want += t;
  }
  printf("%.17g %.17g %.17g\n", __enzyme_autodiff((void *)poly, x, 8), __enzyme_fwddiff((void *)poly, x, 1.0, 8), want);
  return 0;
}
"""


def functions(ll: str) -> dict:
    return {m.group(1): m.group(2) for m in re.finditer(r"define [^@]*@([\w.]+)\(.*?\{(.*?)\n\}", ll, re.S)}


def test_derivative_products_and_sums_are_contractible(tmp):
    p = tmp / "c.c"
    p.write_text(SRC)
    r = run_pgcc([p, "-O2", "-S", "--emit=llvm", "-o", tmp / "c.ll"])
    assert r.returncode == 0, r.stderr
    fs = functions((tmp / "c.ll").read_text())
    rev = next(b for n, b in fs.items() if n.startswith("poly.autodiff"))
    fwd = next(b for n, b in fs.items() if n.startswith("poly.fwddiff"))
    assert "contract" not in fs["poly"]
    for body in (rev, fwd):
        assert re.search(r"fmul contract double", body) and re.search(r"fadd reassoc contract double", body)
    # the forward mode's primal copy (p * x + c) is not contracted: exactly the primal's operations remain plain
    assert len(re.findall(r"fmul double", fwd)) == len(re.findall(r"fmul double", fs["poly"]))
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    g_rev, g_fwd, want = map(float, out.stdout.split())
    assert abs(g_rev - want) <= 1e-14 * abs(want) and abs(g_fwd - want) <= 1e-14 * abs(want)


REDUCE = r"""
#include <stdio.h>
extern void __enzyme_autodiff(void *, ...);
/* the adjoint of m sums a contribution per element: a reassociable reduction */
void scale(double *restrict out, const double *restrict in, double *m, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / m[0];
}
int main(void) {
  enum { N = 1000 };
  static double in[N], din[N], out[N], dout[N];
  double m = 1.7, dm = 0, want = 0;
  for (int i = 0; i < N; i++) { in[i] = 1 + (i % 7); dout[i] = 1.0 / (1 + i % 3); want -= in[i] * dout[i]; }
  __enzyme_autodiff((void *)scale, out, dout, in, din, &m, &dm, N);
  printf("%.17g %.17g %.17g %.17g\n", dm, want / (m * m), din[5], 1.0 / (1 + 5 % 3) / m);
  return 0;
}
"""


def test_adjoint_reduction_is_reassociable(tmp):
    p = tmp / "r.c"
    p.write_text(REDUCE)
    r = run_pgcc([p, "-O2", "-S", "--emit=llvm", "-o", tmp / "r.ll"])
    assert r.returncode == 0, r.stderr
    rev = next(b for n, b in functions((tmp / "r.ll").read_text()).items() if n.startswith("scale.autodiff"))
    assert re.search(r"phi double .*\n(.*\n)*.*fadd reassoc contract double", rev)  # the loop-carried adjoint of m
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    dm, want, d5, want5 = map(float, out.stdout.split())
    assert abs(dm - want) <= 1e-13 * abs(want) and d5 == want5
