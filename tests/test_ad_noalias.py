"""A ``restrict`` parameter stays ``restrict`` in its derivatives, for its primal copy and for its shadow
(ad/emit.py: copy_noalias); other parameters and their shadows get no attribute. Checked on the derivative
signatures in both modes and on values."""

from __future__ import annotations

import re

from conftest import build_pgcc, run_exe, run_pgcc

SRC = r"""
#include <stdio.h>
extern void __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
void scale(double *restrict out, const double *in, double c, int n) { for (int i = 0; i < n; i++) out[i] = c * in[i] * in[i]; }
int main(void) {
  double in[3] = {1, 2, 3}, din[3] = {0, 0, 0}, out[3], dout[3] = {1, 1, 1}, tin[3] = {1, 0, 2}, tout[3];
  __enzyme_autodiff((void *)scale, out, dout, in, din, 0.5, 3);
  __enzyme_fwddiff((void *)scale, out, tout, in, tin, 0.5, 0.0, 3);
  for (int i = 0; i < 3; i++) printf("%g %g %g %g\n", din[i], 2 * 0.5 * in[i], tout[i], 2 * 0.5 * in[i] * tin[i]);
  return 0;
}
"""


def test_restrict_carries_to_primal_and_shadow_arguments(tmp):
    p = tmp / "c.c"
    p.write_text(SRC)
    r = run_pgcc([p, "-O2", "-S", "--emit=llvm", "-o", tmp / "c.ll"])
    assert r.returncode == 0, r.stderr
    sigs = dict(re.findall(r"define [^@]*@(scale\.\w+\.\d+)\((.*?)\)", (tmp / "c.ll").read_text()))
    assert len(sigs) == 2
    for name, args in sigs.items():
        params = [a.strip() for a in args.split(",")]
        assert params[0].startswith("ptr noalias") and params[1].startswith("ptr noalias"), (name, params)
        assert all("noalias" not in a for a in params[2:]), (name, params)
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    for line in out.stdout.splitlines():
        a, b, c, d = map(float, line.split())
        assert a == b and c == d
