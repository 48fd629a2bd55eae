"""Reverse mode through scalar loops with one active input (ad/preaccumulate.py): the loop is re-run in forward
mode instead of being taped and reversed. Checked on the derivative's MLIR (no cache allocation, no reversed loop)
and on values against closed forms and central finite differences; loops that do not qualify (two active inputs,
memory overwritten after the loop) keep the taped reversal and stay exact."""

from __future__ import annotations

from conftest import build_pgcc, derivative_text, emit_ad, run_exe

SRC = r"""
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;
/* log(x) around 1 by its Taylor series: one active input (y = x - 1, read inside the loop) */
double taylor_log(double x, int n) {
  double s = 0, p = 1, y = x - 1;
  for (int k = 1; k <= n; k++) { p *= y; s += (k % 2 ? p : -p) / k; }
  return s;
}
/* an inner loop per element whose one active input is its initial value (loaded from a) */
double iterate(double *restrict out, const double *a, double w, int n, int m) {
  double l = 0;
  for (int i = 0; i < n; i++) {
    double q = a[i];
    for (int k = 0; k < m; k++) { q = q * w + sin(q) * 0.1; if (q > 2) q = q - 1; }
    out[i] = q;
    l += q * q;
  }
  return l;
}
/* two active inputs (y and z): the loop is reversed on a tape */
double affine_rec(const double *v, int n) {
  double p = 1, y = v[0], z = v[1];
  for (int k = 0; k < n; k++) p = p * y + z;
  return p;
}
/* the loop reads memory written after it: not re-run in the reverse sweep */
double overwritten(double *a, double x, int n) {
  double s = x;
  for (int k = 0; k < n; k++) s = s * a[k];
  a[0] = 0;
  return s;
}
int main(void) {
  double x = 1.3, y = x - 1;
  int n = 25;
  double g = __enzyme_autodiff((void *)taylor_log, x, n);
  printf("%.15g %.15g\n", g, (1 - pow(-y, n)) / (1 + y));  /* sum_{k<=n} (-y)^(k-1) */

  enum { N = 5, M = 7 };
  double a[N], da[N], out[N], dout[N], h = 1e-6;
  for (int i = 0; i < N; i++) { a[i] = 0.2 + 0.3 * i; da[i] = 0; dout[i] = 0; }
  __enzyme_autodiff((void *)iterate, out, dout, a, da, enzyme_const, 0.9, N, M);
  for (int i = 0; i < N; i++) {
    double s = a[i];
    a[i] = s + h; double fp = iterate(out, a, 0.9, N, M);
    a[i] = s - h; double fm = iterate(out, a, 0.9, N, M);
    a[i] = s;
    printf("%.15g %.15g\n", da[i], (fp - fm) / (2 * h));
  }

  double v[2] = {0.7, 0.4}, dv[2] = {0, 0}, vp[2], vm[2];
  __enzyme_autodiff((void *)affine_rec, v, dv, 6);
  for (int j = 0; j < 2; j++) {
    vp[0] = vm[0] = v[0]; vp[1] = vm[1] = v[1]; vp[j] += h; vm[j] -= h;
    printf("%.15g %.15g\n", dv[j], (affine_rec(vp, 6) - affine_rec(vm, 6)) / (2 * h));
  }

  double b[4] = {1.5, 0.5, 2.0, 3.0}, db[4] = {0, 0, 0, 0};
  double gx = __enzyme_autodiff((void *)overwritten, enzyme_const, b, 0.8, 4);
  printf("%.15g %.15g\n", gx, 1.5 * 0.5 * 2.0 * 3.0);
  (void)db;
  return 0;
}
"""


def test_single_input_loops_are_preaccumulated_without_a_tape(tmp):
    p = tmp / "pre.c"
    p.write_text(SRC)
    text = emit_ad(p, tmp, "-O2")
    taylor = derivative_text(text, "taylor_log")
    assert "call @malloc" not in taylor  # no cache of p per iteration
    assert taylor.count("scf.for") == 1  # the tangent loop only: no reversed loop (the forward copy is dead)
    it = derivative_text(text, "iterate")
    assert it.count("call @malloc") == 1  # q once per element (for l += q*q); the inner loop's q is not taped
    # a loop with two active inputs keeps its tape and reversed loop; so does one reading overwritten memory
    assert "call @malloc" in derivative_text(text, "affine_rec")
    assert "call @malloc" in derivative_text(text, "overwritten")
    # derivative arithmetic may contract to FMA; the primal copy (forward sweep) keeps exact products
    assert "fastmath<contract>" in taylor
    assert "fastmath<contract>" not in text[:text.index("func.func private @taylor_log.autodiff")].split(
        "func.func @taylor_log")[1].split("func.func")[0]

    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rows = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert len(rows) == 1 + 5 + 2 + 1
    exact = [rows[0], rows[-1]]
    for got, want in exact:
        assert abs(got - want) <= 1e-13 * (1 + abs(want)), (got, want)
    for got, fd in rows[1:-1]:
        assert abs(got - fd) <= 1e-6 * (1 + abs(fd)), (got, fd)
    assert max(abs(g) for g, _ in rows[1:6]) > 1e-2
