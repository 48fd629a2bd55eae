"""What the reverse sweep caches: the fewest values (minimum cut), loads re-read when memory is not
overwritten, every cache freed. Checked on the derivative's MLIR (counting cache allocations) and on values
against hand-derived derivatives."""

from __future__ import annotations

from conftest import build_pgcc, derivative_text, emit_ad, run_exe, run_pgcc

SRC = r"""
#include <stdio.h>
#include <math.h>
extern void __enzyme_autodiff(void *, ...);
/* x = a[i] is overwritten by the store: it must be cached; sin, cos, exp of it are recomputed from it */
void overwrite(double *a, int n) { for (int i = 0; i < n; i++) a[i] = sin(a[i]) * cos(a[i]) + exp(a[i]) * a[i]; }
/* b is only read: nothing needs a cache */
void readonly_input(double *restrict out, const double *b, int n) {
  for (int i = 0; i < n; i++) out[i] = sin(b[i]) * b[i];
}
int main(void) {
  double a[4] = {0.1, 0.2, 0.3, 0.4}, da[4] = {1, 1, 1, 1}, x0[4] = {0.1, 0.2, 0.3, 0.4};
  __enzyme_autodiff((void *)overwrite, a, da, 4);
  for (int i = 0; i < 4; i++) {
    double x = x0[i];
    printf("%.12g %.12g\n", da[i], cos(2 * x) + exp(x) * (1 + x));  /* d/dx [sin x cos x + x e^x] */
  }
  double o[4], dout[4] = {1, 2, 3, 4}, db[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)readonly_input, o, dout, x0, db, 4);
  for (int i = 0; i < 4; i++) {
    double x = x0[i];
    printf("%.12g %.12g\n", db[i], (i + 1) * (cos(x) * x + sin(x)));
  }
  return 0;
}
"""


def test_minimum_cut_caches_one_value_and_frees_it(tmp):
    p = tmp / "c.c"
    p.write_text(SRC)
    text = emit_ad(p, tmp)
    over = derivative_text(text, "overwrite")
    assert over.count("call @malloc") == 1  # one cache: the loaded value, not sin/cos/exp of it
    assert over.count("call @free") == 1
    assert "call @malloc" not in derivative_text(text, "readonly_input")
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rows = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert len(rows) == 8
    for got, want in rows:
        assert abs(got - want) < 1e-12 * (1 + abs(want))


def test_frontend_and_ad_stage_output_is_upstream_mlir(tmp):
    """The Enzyme calls' placeholder form (after the frontend) and the derivatives (after the ad stage) parse and
    verify with upstream mlir-opt; no placeholder is left after the ad stage."""
    import subprocess

    from conftest import PROGRAMS
    from polygeist_py.toolchain import mlir_tool

    for name in ("arrays.c", "custom_rules.c"):
        for stage in ("mlir", "ad"):
            r = run_pgcc([PROGRAMS / "ad" / name, f"--emit={stage}", "-o", "-"])
            assert r.returncode == 0, r.stderr
            v = subprocess.run([mlir_tool("mlir-opt"), "--verify-diagnostics", "-"], input=r.stdout,
                               capture_output=True, text=True)
            assert v.returncode == 0, v.stderr[:2000]
            if stage == "mlir":
                assert "__pgcc_enzyme_" in r.stdout
            else:
                assert "__pgcc_enzyme_" not in r.stdout and "pgcc.enzyme" not in r.stdout
                assert ".autodiff." in r.stdout
