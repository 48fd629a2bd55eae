"""The cache-or-recompute cut weighs libm calls (ad/mincut.py): the reverse sweep does not evaluate exp/tanh a second
time when caching their result costs less (a lone tanh(a), or exp(-s[k]) that does not change with the data point
and is cached in a small hoisted array), while one cached input still beats caching several functions of it
(test_ad_caching.py). Checked on the derivative's MLIR (how many times each function is evaluated) and on values
against central finite differences."""

from __future__ import annotations

from conftest import build_pgcc, derivative_text, emit_ad, run_exe

SRC = r"""
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;
/* h is overwritten in place: tanh(h[i]) is needed by the reverse sweep (1 - tanh^2) and is cached, not h[i] */
double squash(double *restrict h, int n, int T) {
  for (int s = 0; s < T; s++)
    for (int i = 0; i < n; i++) h[i] = tanh(h[i]) * 0.9 + 0.1 * i;
  double l = 0;
  for (int i = 0; i < n; i++) l += h[i] * h[i];
  return l;
}
/* exp(-s[k]) does not depend on the point i: cached once per k (hoisted cache), not recomputed per (i, k) */
double mix(const double *x, const double *s, int n, int K) {
  double ll = 0;
  for (int i = 0; i < n; i++) {
    double p = 0;
    for (int k = 0; k < K; k++) { double z = (x[i] - k) * exp(-s[k]); p += exp(-z * z); }
    ll += log(p);
  }
  return ll;
}
int main(void) {
  enum { N = 4, T = 3, K = 3, P = 6 };
  double h0[N] = {0.3, -0.2, 0.5, 0.1}, h[N], dh[N], hp[N], hm[N], e = 1e-6;
  for (int i = 0; i < N; i++) { h[i] = h0[i]; dh[i] = 0; }
  __enzyme_autodiff((void *)squash, h, dh, N, T);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) hp[i] = hm[i] = h0[i];
    hp[j] += e; hm[j] -= e;
    printf("%.15g %.15g\n", dh[j], (squash(hp, N, T) - squash(hm, N, T)) / (2 * e));
  }
  double x[P], s[K] = {0.1, -0.3, 0.2}, ds[K] = {0, 0, 0};
  for (int i = 0; i < P; i++) x[i] = 0.4 * i;
  __enzyme_autodiff((void *)mix, enzyme_const, x, s, ds, P, K);
  for (int k = 0; k < K; k++) {
    double v = s[k];
    s[k] = v + e; double fp = mix(x, s, P, K);
    s[k] = v - e; double fm = mix(x, s, P, K);
    s[k] = v;
    printf("%.15g %.15g\n", ds[k], (fp - fm) / (2 * e));
  }
  return 0;
}
"""


def test_libm_results_are_cached_when_cheaper_than_recomputing(tmp):
    p = tmp / "c.c"
    p.write_text(SRC)
    text = emit_ad(p, tmp, "-O2")
    sq = derivative_text(text, "squash")
    assert sq.count("math.tanh") == 1  # the forward sweep only
    assert sq.count("call @malloc") == 1  # one cache: tanh(h[i]) per (s, i)
    mx = derivative_text(text, "mix")
    # forward sweep: exp(-s[k]) and exp(-z*z); reverse: exp(-z*z) again (it changes with i and k, so re-evaluating
    # it costs less than a cache of n*K), exp(-s[k]) not (cached per k)
    assert mx.count("math.exp %") == 3
    out = run_exe(build_pgcc(p, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rows = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert len(rows) == 4 + 3
    for got, fd in rows:
        assert abs(got - fd) <= 1e-6 * (1 + abs(fd)), (got, fd)
    assert min(abs(g) for g, _ in rows) > 1e-3
