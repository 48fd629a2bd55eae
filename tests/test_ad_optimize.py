"""AD runs on optimized code: Enzyme's normalization example (`out[i] = in[i] / mag(in)` with a read-only `mag`
called inside the loop) has an O(n) gradient when `out` is `restrict`: the call is hoisted out of the loop
before differentiation. Checked on the structure of the derivative (loop nesting depth) and on its values."""

from __future__ import annotations

from mlir import ir

from conftest import build_pgcc, run_exe, run_pgcc

SRC = r"""
#include <stdio.h>
#include <math.h>
extern void __enzyme_autodiff(void *, ...);
double mag(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return sqrt(s); }
void normalize(double *RESTRICT out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
int main(void) {
  enum { N = 7 };
  double a[N], da[N], b[N], db[N], h = 1e-6;
  for (int i = 0; i < N; i++) { a[i] = 1 + 0.3 * i; da[i] = 0; db[i] = 1.0 + i % 3; }
  __enzyme_autodiff((void *)normalize, b, db, a, da, N);
  for (int k = 0; k < N; k++) {
    double s = a[k], fp = 0, fm = 0;
    a[k] = s + h; normalize(b, a, N); for (int i = 0; i < N; i++) fp += (1.0 + i % 3) * b[i];
    a[k] = s - h; normalize(b, a, N); for (int i = 0; i < N; i++) fm += (1.0 + i % 3) * b[i];
    a[k] = s;
    printf("%.12g %.12g\n", da[k], (fp - fm) / (2 * h));
  }
  return 0;
}
"""

LOOPS = ("scf.for", "affine.for", "scf.while")


def loop_depth(op) -> int:
    best = 0
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                d = loop_depth(inner) + (1 if inner.operation.name in LOOPS else 0)
                best = max(best, d)
    return best


def derivative_depth(path, tmp, name="normalize") -> int:
    r = run_pgcc([path, "-S", "--emit=ad", "-o", tmp / "ad.mlir"])
    assert r.returncode == 0, r.stderr
    with ir.Context():
        m = ir.Module.parse((tmp / "ad.mlir").read_text())
        fs = [f for f in m.body.operations if f.operation.name == "func.func"
              and ir.StringAttr(f.attributes["sym_name"]).value.startswith(f"{name}.autodiff")]
        assert len(fs) == 1
        return loop_depth(fs[0])


def check_values(path, tmp):
    out = run_exe(build_pgcc(path, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rows = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert len(rows) == 7
    for got, ref in rows:
        assert abs(got - ref) < 1e-6 * (1 + abs(ref))
    assert max(abs(g) for g, _ in rows) > 1e-2


def test_normalization_gradient_is_linear_with_restrict(tmp):
    p = tmp / "norm.c"
    p.write_text(SRC.replace("RESTRICT", "restrict"))
    assert derivative_depth(p, tmp) == 1  # mag's loop hoisted: no loop nest left
    check_values(p, tmp)


def test_normalization_without_restrict_stays_correct(tmp):
    p = tmp / "norm.c"
    p.write_text(SRC.replace("RESTRICT", ""))
    assert derivative_depth(p, tmp) == 2  # `out` may alias `in`: the call stays in the loop
    check_values(p, tmp)


def test_hoisted_call_is_not_speculated(tmp):
    """The read-only call is hoisted under a guard: with an empty loop it is not made (here it would read NULL)."""
    src = r"""
    #include <stdio.h>
    extern void __enzyme_autodiff(void *, ...);
    double first(const double *p) { return p[0] * p[0]; }
    void scale(double *restrict out, const double *in, const double *p, int n) {
      for (int i = 0; i < n; i++) out[i] = in[i] * first(p);
    }
    int main(void) {
      double out[3], dout[3] = {1, 2, 3}, in[3] = {0.5, 1.5, 2.5}, din[3] = {0}, p[1] = {1.5}, dp[1] = {0};
      __enzyme_autodiff((void *)scale, out, dout, in, din, (const double *)0, (double *)0, 0);  /* n = 0 */
      __enzyme_autodiff((void *)scale, out, dout, in, din, p, dp, 3);
      /* hand-derived: d/din[i] = dout[i] p^2, d/dp = sum_i dout[i] in[i] 2 p */
      printf("%.12g %.12g\n%.12g %.12g\n", din[2], 3 * 2.25, dp[0], (0.5 + 3.0 + 7.5) * 3.0);
      return 0;
    }
    """
    p = tmp / "h.c"
    p.write_text(src)
    assert derivative_depth(p, tmp, "scale") == 1
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    for line in out.stdout.splitlines():
        got, want = map(float, line.split())
        assert abs(got - want) < 1e-12 * (1 + abs(want))

