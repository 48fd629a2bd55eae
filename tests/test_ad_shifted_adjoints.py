"""Shadow accumulations at neighbouring elements in a reversed loop (the reverse of a stencil) are carried in
loop-carried values and stored once per element (ad/shifted_adjoints.py). Checked on the derivative's MLIR
(iter_args in the reversed loop only when the shadow's memory is provably its own) and on values against the
hand-derived adjoint, including trip counts 0 and 1 (the elements still pending after the loop)."""

from __future__ import annotations

from conftest import build_pgcc, derivative_text, emit_ad, run_exe

SRC = r"""
#include <stdio.h>
extern void __enzyme_autodiff(void *, ...);
void smooth(double *restrict out, const double *restrict in, int n) {
  for (int i = 1; i < n - 1; i++) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.375 * in[i + 1];
}
/* may alias: left as it is */
void smooth_alias(double *out, const double *in, int n) {
  for (int i = 1; i < n - 1; i++) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.375 * in[i + 1];
}
int main(void) {
  int sizes[4] = {2, 3, 4, 9};
  for (int v = 0; v < 2; v++)
    for (int t = 0; t < 4; t++) {
      int n = sizes[t];
      double in[9], din[9], out[9], dout[9], want[9];
      for (int i = 0; i < n; i++) { in[i] = i; din[i] = 1 + 0.5 * i; dout[i] = 1.0 + i * i; }
      for (int k = 0; k < n; k++) {
        want[k] = din[k];
        if (k + 1 >= 1 && k + 1 < n - 1) want[k] += 0.25 * dout[k + 1];
        if (k >= 1 && k < n - 1) want[k] += 0.5 * dout[k];
        if (k - 1 >= 1 && k - 1 < n - 1) want[k] += 0.375 * dout[k - 1];
      }
      if (v) __enzyme_autodiff((void *)smooth_alias, out, dout, in, din, n);
      else __enzyme_autodiff((void *)smooth, out, dout, in, din, n);
      for (int k = 0; k < n; k++) printf("%.17g %.17g\n", din[k], want[k]);
    }
  return 0;
}
"""


def test_stencil_adjoints_are_carried_in_registers(tmp):
    p = tmp / "s.c"
    p.write_text(SRC)
    text = emit_ad(p, tmp, "-O2")
    carried = derivative_text(text, "smooth")
    plain = derivative_text(text, "smooth_alias")
    assert "iter_args" in carried and "scf.if" in carried  # pending sums, stored after the loop when it ran
    assert "iter_args" not in plain
    # in the loop: one accumulation into the shadow of `in` per iteration instead of three
    loop = carried[carried.index("iter_args"):carried.index("scf.if")]
    assert loop.count("memref.store") == 2  # that one, and the reset of the shadow of out[i]
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rows = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert len(rows) == 2 * (2 + 3 + 4 + 9)
    for got, want in rows:
        assert abs(got - want) <= 1e-15 * abs(want), (got, want)


def test_adjoint_of_a_loop_invariant_element_is_a_loop_carried_value(tmp):
    """out[i] = in[i] / m[0]: the contributions to dm[0] are summed in an iter_arg and stored once after the loop
    (m is not restrict, but a shadow never shares memory with primal arrays and the other shadows are noalias)."""
    from test_ad_contract import REDUCE
    p = tmp / "r.c"
    p.write_text(REDUCE)
    d = derivative_text(emit_ad(p, tmp, "-O2"), "scale")
    loop = d[d.index("iter_args"):d.index("scf.if")]
    assert "%c0] :" not in loop.split("memref.load")[-1]  # no shadow access at a constant index in the loop
    assert loop.count("memref.store") == 2  # reset of dout[i], accumulation into din[i]
    after = d[d.index("scf.if"):]
    assert after.count("memref.store") == 1  # dm[0] += the carried sum
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    dm, want, d5, want5 = map(float, out.stdout.split())
    assert abs(dm - want) <= 1e-13 * abs(want) and d5 == want5
