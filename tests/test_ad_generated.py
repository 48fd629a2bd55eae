"""Randomly generated programs (fixed seeds, so the test is deterministic): loops, while loops, breaks, branches,
in-place array updates, calls of helpers that read or write arrays, a local array. For each, reverse mode
(<gradient, v>), forward mode (tangent along v) and a central finite difference along v must agree."""

from __future__ import annotations

import random

import pytest

from conftest import build_pgcc, run_exe

SEEDS = [17, 25, 35, 38, 44, 80, 81, 84]  # each uses five or more of: break, helper calls, scale (writes b),
# while, nested for, local array, if


def expr(r, vars_, depth=0):
    if depth > 2 or r.random() < 0.3:
        return r.choice(vars_ + ["0.3", "1.7", "x"])
    a = expr(r, vars_, depth + 1)
    b = expr(r, vars_, depth + 1)
    k = r.randrange(11)
    return ["sin(%s)" % a, "cos(%s)" % a, "tanh(%s)" % a, "(%s * %s)" % (a, b), "(%s + %s)" % (a, b),
            "(%s - %s)" % (a, b), "sqrt(1.0 + %s * %s)" % (a, a), "exp(0.3 * tanh(%s))" % a,
            "fmax(%s, %s)" % (a, b), "(%s / (1.5 + %s * %s))" % (a, b, b), "log(2.0 + sin(%s))" % a][k]


def stmt(r, depth, loopvar):
    vars_ = ["s", "a[%s]" % loopvar, "b[%s]" % loopvar, "t"] if loopvar else ["s", "t", "a[0]", "b[1]"]
    k = r.randrange(11)
    if k == 0:
        return "s = %s;" % expr(r, vars_)
    if k == 1:
        return "t = %s;" % expr(r, vars_)
    if k == 2 and loopvar:
        return "a[%s] = %s;" % (loopvar, expr(r, vars_))
    if k == 3 and loopvar:
        return "b[%s] = %s;" % (loopvar, expr(r, vars_))
    if k == 4:
        return "if (%s > 0.2) { %s } else { %s }" % (expr(r, vars_), stmt(r, depth + 1, loopvar),
                                                     stmt(r, depth + 1, loopvar))
    if k == 5 and depth < 2:
        v = "i%d" % depth
        body = " ".join(stmt(r, depth + 1, v) for _ in range(r.randrange(1, 4)))
        lo = r.choice(["0", "1"])
        return "for (int %s = %s; %s < n; %s++) { %s }" % (v, lo, v, v, body)
    if k == 6 and depth < 2:
        body = " ".join(stmt(r, depth + 1, loopvar) for _ in range(r.randrange(1, 3)))
        return "{ int it = 0; while (it < 3 && s < 5.0) { %s it++; } }" % body
    if k == 7 and loopvar:
        return "if (%s > 1.4) break;" % expr(r, vars_)
    if k == 8:
        return "s = helper(%s, a, n);" % expr(r, vars_)
    if k == 9:
        return "scale(b, %s, n);" % expr(r, vars_)
    if k == 10:
        return "loc[%d] = %s; s = s + loc[%d] * loc[(%d + 1) %% 4];" % (r.randrange(4), expr(r, vars_),
                                                                      r.randrange(4), r.randrange(4))
    return "s = s + %s;" % expr(r, vars_)


def program(seed):
    """C source of generated function f and a main printing reverse, forward and finite difference."""
    r = random.Random(seed)
    body = " ".join(stmt(r, 0, None) for _ in range(r.randrange(2, 5)))
    f = ("double helper(double u, const double *p, int n) {\n"
         "  double q = u;\n  for (int k = 0; k < n; k++) q = q * 0.5 + sin(p[k] * q);\n  return q;\n}\n"
         "void scale(double *p, double c, int n) {\n"
         "  for (int k = 0; k < n; k++) p[k] = p[k] * tanh(c) + 0.1 * p[k] * p[k];\n}\n"
         "double f(double *a, double *b, double x, int n) {\n"
         "  double s = x, t = 0.5, loc[4] = {0.1, 0.2, 0.3, 0.4};\n  %s\n"
         "  double o = s + t;\n  for (int k = 0; k < n; k++) o += a[k] * (k + 1) + b[k] * b[k];\n"
         "  return o;\n}\n" % body)
    main = r'''
#include <stdio.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
%s
int main(void) {
  enum { N = 4 };
  double a0[N] = {0.31, -0.2, 0.5, 0.1}, b0[N] = {0.4, 0.25, -0.3, 0.6}, x = 0.35, h = 1e-6;
  double a[N], b[N], da[N], db[N];
  for (int i = 0; i < N; i++) { a[i] = a0[i]; b[i] = b0[i]; da[i] = db[i] = 0; }
  double dx = __enzyme_autodiff((void *)f, a, da, b, db, x, N);
  double va[N] = {0.3, 0.7, -0.2, 0.5}, vb[N] = {-0.4, 0.1, 0.9, 0.2}, vx = 0.6;
  for (int i = 0; i < N; i++) { a[i] = a0[i] + h * va[i]; b[i] = b0[i] + h * vb[i]; }
  double fp = f(a, b, x + h * vx, N);
  for (int i = 0; i < N; i++) { a[i] = a0[i] - h * va[i]; b[i] = b0[i] - h * vb[i]; }
  double fm = f(a, b, x - h * vx, N);
  double fd = (fp - fm) / (2 * h), rev = dx * vx;
  for (int i = 0; i < N; i++) rev += da[i] * va[i] + db[i] * vb[i];
  for (int i = 0; i < N; i++) { a[i] = a0[i]; b[i] = b0[i]; }
  double ta[N], tb[N];
  for (int i = 0; i < N; i++) { ta[i] = va[i]; tb[i] = vb[i]; }
  double fwd = __enzyme_fwddiff((void *)f, a, ta, b, tb, x, vx, N);
  printf("%%.12g %%.12g %%.12g\n", rev, fwd, fd);
  return 0;
}
''' % f
    return main



@pytest.mark.parametrize("seed", SEEDS)
def test_generated_program(seed, tmp):
    src = tmp / f"g{seed}.c"
    src.write_text(program(seed))
    out = run_exe(build_pgcc(src, tmp / "app"))
    assert out.returncode == 0, out.stderr
    rev, fwd, fd = map(float, out.stdout.split())
    assert abs(fd) > 1e-6
    assert abs(rev - fd) < 1e-5 * (1 + abs(fd)), (rev, fd)
    assert abs(fwd - fd) < 1e-5 * (1 + abs(fd)), (fwd, fd)
