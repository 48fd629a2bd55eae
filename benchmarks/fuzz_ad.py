"""Random differentiable C/CUDA programs checked three ways: reverse mode, forward mode and central finite
differences of one scalar objective (not a test; a hunting tool for wrong derivatives).

Each generated program defines ``f(double *a, double *b, double *o, double x, double y, int n)`` built from
random statements (constant and data-dependent loop bounds, nested loops, branches on inputs and on indices,
``while`` with early ``break``, pointer arithmetic, structs and arrays of structs, static / recursive /
function-pointer helpers, libm calls, int-float mixes, local arrays, malloc/free, globals read and written,
``#pragma omp parallel for`` with reductions), or a CUDA host function launching random kernels (shared memory,
``__syncthreads``, atomics; compiled with ``--cpuify``). ``b`` may alias ``a`` (two ``enzyme_dup`` pointers into
one array). The objective is ``L = f(...) + <wa, A_final> + <wo, o_final>``; ``main`` prints

* ``rev``: ``<grad L, v>`` from ``__enzyme_autodiff`` (shadows seeded with ``wa``/``wo``),
* ``fwd``: the tangent of ``L`` along ``v`` from ``__enzyme_fwddiff``,
* ``fd1``/``fd2``: central differences along ``v`` with steps 1e-5 and 1e-6 (when they disagree the point is
  not smooth, e.g. a branch flips, and the program is skipped rather than flagged).

Markers are mixed per program: enzyme_out / unmarked / enzyme_const for the scalars, enzyme_dup /
enzyme_dupnoneed for ``o``. A program is *wrong* when ``rev`` and ``fwd`` differ (relative 1e-9) or either
differs from the finite difference (relative 1e-6).

Clear refusals it meets (errors naming the construct, not wrong code): vector mode through recursion or a
parallel loop. Calls through a function pointer chosen at run time (``tab[(int)v % 2](..)``) are differentiated
(ad/pointer_dispatch.py), and so are grid-stride loops in kernels (elementwise, atomicAdd of per-thread sums,
2-D, a block-stride loop around a __shared__ reduction; ad/while_to_for.py).

Usage: ``python benchmarks/fuzz_ad.py [--seeds 0:200] [--levels O0,O2,O3] [--kind c,omp,cuda] [--out DIR]
[--pgcc PATH] [--keep]``; prints one line per program and level and a summary.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

N = 6  # length of a, b and o


class Gen:
    """Random statements for the body of f; ``feat`` records which constructs a program uses."""

    def __init__(self, seed: int, kind: str):
        self.r = random.Random(seed)
        self.kind = kind
        self.feat: set[str] = set()
        self.tmp = 0
        # (this program also checks vector forward mode; pgcc refuses it through parallel loops, clearly)
        self.vector = self.r.random() < 0.4 and kind != "omp"

    def leaf(self, scope):
        r = self.r
        c = r.randrange(10)
        if c < 3:
            return r.choice(["s", "t", "x", "y"])
        if c == 3:
            return r.choice(["0.3", "1.7", "-0.6"])
        if scope:
            i = r.choice(scope)
            j = r.choice(scope)
            c2 = r.randrange(12)
            if c2 == 0:
                return "a[%s]" % i
            if c2 == 1:
                return "b[%s]" % i
            if c2 == 2:
                return "a[(%s + %s + 1) %% n]" % (i, j)
            if c2 == 3:
                self.feat.add("ptr")
                return "*(b + (n - 1 - %s))" % i
            if c2 == 4:
                self.feat.add("local")
                return "loc[%s %% 8]" % i
            if c2 == 5:
                self.feat.add("struct")
                return "ps[%s %% 4].u" % i
            if c2 == 6:
                self.feat.add("malloc")
                return "m[%s]" % i
            if c2 == 7:
                self.feat.add("intmix")
                return "(%s * 0.25)" % i
            if c2 == 8:
                self.feat.add("global")
                return "gl[%s %% 4]" % i
            if c2 == 9:
                return "o[%s]" % i
            return "a[%s]" % i
        return self.r.choice(["a[0]", "b[1]", "a[n - 1]", "o[2]", "loc[3]", "ps[1].v", "gl[2]", "m[1]"])

    def expr(self, scope, depth=0):
        r = self.r
        if depth > 2 or r.random() < 0.3:
            return self.leaf(scope)
        a = self.expr(scope, depth + 1)
        b = self.expr(scope, depth + 1)
        k = r.randrange(23)
        if k in (9, 10, 11, 12, 13, 14):
            self.feat.add("libm")
        if k == 15:
            self.feat.add("helper")
        if k == 16 and self.vector:  # (vector mode refuses recursion, clearly: keep it out)
            k = 19
        if k == 16:
            self.feat.add("recursive")
        if k == 17:
            self.feat.add("fnptr")
        return ["(%s * %s)" % (a, b), "(%s + %s)" % (a, b), "(%s - %s)" % (a, b), "sin(%s)" % a, "cos(%s)" % a,
                "tanh(%s)" % a, "(%s / (1.5 + %s * %s))" % (a, b, b), "(0.5 * %s)" % a, "(%s * %s)" % (a, a),
                "exp(0.3 * tanh(%s))" % a, "log(2.0 + sin(%s))" % a, "pow(1.5 + sin(%s), 1.3)" % a,
                "fabs(%s)" % a, "fmax(%s, %s)" % (a, b), "sqrt(1.0 + %s * %s)" % (a, a),
                "h1(%s, %s)" % (a, b), "rec(%s, 3)" % a, "tab[%d](%s, %s)" % (r.randrange(2), a, b),
                "(%s + (double)(int)(%s))" % (a, a), "(%s * 1.1)" % a][k] if k < 20 else self.expr2(a, b)

    def expr2(self, a, b):
        r = self.r
        k = r.randrange(4)
        if k == 0:
            self.feat.add("ternary")
            return "(%s > %s ? %s : 0.5 * %s)" % (a, b, a, b)
        if k == 1 and not self.vector:
            self.feat.add("recarray")
            return "rsum(a, %s, n)" % a
        if k == 2 and r.random() < 0.2:  # (a run-time choice of function pointer)
            self.feat.add("fnptr")
            return "tab[(int)(fabs(%s) * 2.0) %% 2](%s, 0.4)" % (a, b)
        return "hypot(%s, 0.5 + %s * %s)" % (a, b, b)

    def lhs(self, scope):
        r = self.r
        if scope:
            i = r.choice(scope)
            c = r.randrange(10)
            if c == 0:
                return "a[%s]" % i
            if c == 1:
                return "b[%s]" % i
            if c == 2:
                return "o[%s]" % i
            if c == 3:
                self.feat.add("local")
                return "loc[%s %% 8]" % i
            if c == 4:
                self.feat.add("struct")
                return "ps[%s %% 4].%s" % (i, r.choice("uv"))
            if c == 5:
                self.feat.add("malloc")
                return "m[%s]" % i
            if c == 6:
                self.feat.add("global")
                return "gl[%s %% 4]" % i
            if c == 7:
                self.feat.add("ptr")
                return "*(o + %s)" % i
        return r.choice(["s", "t", "s", "t", "o[1]", "a[2]"])

    def stmt(self, depth, scope):
        r = self.r
        k = r.randrange(16)
        if k <= 2:
            op = r.choice(["=", "+=", "=", "*="])
            e = self.expr(scope)
            if op == "*=":
                e = "(0.5 + 0.3 * tanh(%s))" % e
            return "%s %s %s;" % (self.lhs(scope), op, e)
        if k == 3:
            self.feat.add("if")
            return "if (%s > 0.2) { %s } else { %s }" % (self.expr(scope), self.stmt(depth + 1, scope),
                                                         self.stmt(depth + 1, scope))
        if k == 4 and scope:
            self.feat.add("ifidx")
            i = r.choice(scope)
            return "if (%s %% 2 == %d) { %s }" % (i, r.randrange(2), self.stmt(depth + 1, scope))
        if k in (5, 6) and depth < 2:
            v = "i%d" % depth
            if scope:
                self.feat.add("nested")
            body = " ".join(self.stmt(depth + 1, scope + [v]) for _ in range(r.randrange(1, 4)))
            c = r.randrange(5)
            if c == 0:
                self.feat.add("ddbound")
                self.tmp += 1
                bound = "nb%d" % self.tmp
                return "{ int %s = 1 + (int)(fabs(%s) * 3.0) %% n; for (int %s = 0; %s < %s; %s++) { %s } }" % (
                    bound, self.expr(scope), v, v, bound, v, body)
            if c == 1 and scope:
                return "for (int %s = %s; %s < n; %s++) { %s }" % (v, scope[-1], v, v, body)
            if c == 2:
                return "for (int %s = n - 1; %s >= 0; %s--) { %s }" % (v, v, v, body)
            if c == 3:
                self.feat.add("constbound")
                return "for (int %s = 1; %s < 5; %s += 2) { %s }" % (v, v, v, body)
            return "for (int %s = 0; %s < n; %s++) { %s }" % (v, v, v, body)
        if k == 7 and depth < 2:
            self.feat.add("while")
            self.tmp += 1
            it = "it%d" % self.tmp
            body = " ".join(self.stmt(depth + 1, scope) for _ in range(r.randrange(1, 3)))
            return "{ int %s = 0; while (%s < 4) { %s if (%s > 1.3) break; %s++; } }" % (
                it, it, body, self.expr(scope), it)
        if k == 8 and scope:
            self.feat.add("break")
            return "if (%s > 1.4) break;" % self.expr(scope)
        if k == 9:
            self.feat.add("helper")
            return "s = hsum(%s, a, n);" % self.expr(scope)
        if k == 10:
            self.feat.add("helper")
            return "hscale(%s, %s, n);" % (r.choice(["b", "o", "a + 1"]), self.expr(scope))
        if k == 11 and scope:
            self.feat.add("ptr")
            i = r.choice(scope)
            return "{ double *p = %s + %s; p[0] = p[0] * 0.9 + %s; }" % (r.choice(["a", "b", "o"]), i,
                                                                   self.expr(scope))
        if k == 12:
            self.feat.add("struct")
            return "ps[%d] = mk(%s, %s);" % (r.randrange(4), self.expr(scope), self.expr(scope))
        if k == 13 and self.kind == "omp" and not scope:
            return self.omp_stmt()
        if k == 14:
            self.feat.add("intmix")
            return "{ int q = (int)(%s * 2.0); s += q * 0.1 + %s; }" % (self.expr(scope), self.expr(scope))
        if k == 15:
            return self.stmt2(depth, scope)
        return "s += %s;" % self.expr(scope)

    def omp_stmt(self):
        """A ``#pragma omp parallel for`` loop: a + reduction into s, or elementwise writes of o."""
        r = self.r
        self.feat.add("omp")
        if r.random() < 0.5:
            return ("{ double acc = 0;\n#pragma omp parallel for reduction(+:acc)\n"
                    "for (int j = 0; j < n; j++) acc += %s;\n s += acc; }" % self.pure(["j"]))
        return ("\n#pragma omp parallel for\nfor (int j = 0; j < n; j++) o[j] = o[j] * 0.5 + %s;\n" %
                self.pure(["j"]))

    def stmt2(self, depth, scope):
        r = self.r
        k = r.randrange(8)
        if k == 0 and scope:
            self.feat.add("continue")
            return "if (%s < 0.0) continue;" % self.expr(scope)
        if k == 1 and depth < 2:
            self.feat.add("dowhile")
            self.tmp += 1
            it = "dw%d" % self.tmp
            return "{ int %s = 0; do { %s %s++; } while (%s < 3 && %s < 2.5); }" % (
                it, self.stmt(depth + 1, scope), it, it, self.expr(scope))
        if k == 2 and scope:
            self.feat.add("switch")
            i = r.choice(scope)
            return "switch (%s %% 3) { case 0: %s break; case 1: %s /* falls through */ default: %s }" % (
                i, self.stmt(depth + 1, scope), self.stmt(depth + 1, scope), self.stmt(depth + 1, scope))
        if k == 3 and not scope:
            self.feat.add("earlyreturn")
            return "if (%s > 1.2) { free(m); return s * 0.5 + t; }" % self.expr(scope)
        if k == 4 and depth < 2:
            self.feat.add("ddwhile")
            self.tmp += 1
            it = "dd%d" % self.tmp
            return "{ int %s = 0; while (s < 2.0 && %s < 6) { s += 0.3 + 0.2 * sin(%s); %s++; } }" % (
                it, it, self.expr(scope), it)
        if k == 5:
            self.feat.add("helperwrite")
            i = r.choice(scope) if scope else "0"
            return "s += hacc(o + %s, %s);" % (i, self.expr(scope))
        if k == 6:
            op = r.choice(["-=", "/="])
            e = self.expr(scope)
            if op == "/=":
                e = "(1.5 + 0.3 * tanh(%s))" % e
            return "%s %s %s;" % (self.lhs(scope), op, e)
        return "t = %s;" % self.expr(scope)

    def pure(self, scope):
        """An expression reading only a, b and x (safe inside a parallel loop)."""
        r = self.r
        j = scope[0]
        leaves = ["a[%s]" % j, "b[%s]" % j, "x", "a[(%s + 1) %% n]" % j, "0.7"]
        e = r.choice(leaves)
        for _ in range(r.randrange(1, 4)):
            e = r.choice(["sin(%s)", "(%s * %s)" % ("%s", r.choice(leaves)), "exp(0.2 * tanh(%s))",
                          "(%s + %s)" % ("%s", r.choice(leaves)), "sqrt(1.0 + %s * %s)" % ("%s", "%s")]) \
                .replace("%s", e)
        return e


PRELUDE = r'''#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
typedef struct { double d0, d1; } G2;
struct P { double u; double v; int k; };
double gl[4];
static double h1(double u, double w) { return sin(u) * 0.5 + w * cos(u) * 0.25; }
static double h2(double u, double w) { return tanh(u * w) + 0.1 * u; }
static double rec(double u, int d) { return d <= 0 ? u : 0.8 * sin(rec(u * 0.9, d - 1)) + 0.1 * u; }
typedef double (*fn_t)(double, double);
static fn_t tab[2] = {h1, h2};
static struct P mk(double u, double v) { struct P p; p.u = tanh(u); p.v = u * v * 0.5; p.k = 1; return p; }
double hsum(double u, const double *p, int n) {
  double q = u;
  for (int k = 0; k < n; k++) q = q * 0.5 + sin(p[k] * q);
  return q;
}
double rsum(const double *p, double c, int n) { return n <= 0 ? c : p[0] * 0.5 + sin(rsum(p + 1, c * 0.9, n - 1)); }
double hacc(double *p, double c) { p[0] = p[0] * 0.8 + sin(c); return p[0] * c; }
void hscale(double *p, double c, int n) {
  for (int k = 0; k < n; k++) p[k] = p[k] * tanh(c) + 0.1 * p[k] * p[k];
}
'''

MAIN = r'''
static void reset(void) { gl[0] = 0.1; gl[1] = -0.2; gl[2] = 0.3; gl[3] = 0.05; }
#define N %(N)d
#define NA %(NA)d
static double A0[NA], O0[N], vA[NA], vO[N], wA[NA], wO[N], uA[NA], uO[N];
static double L(double h, double x, double y, const double *dA, const double *dO, double dx, double dy) {
  double A[NA], O[N];
  for (int i = 0; i < NA; i++) A[i] = A0[i] + h * dA[i];
  for (int i = 0; i < N; i++) O[i] = O0[i] + h * dO[i];
  reset();
  double r = f(A, A + %(OFF)d, O, x + h * dx, y + h * dy, N);
  for (int i = 0; i < NA; i++) r += wA[i] * A[i];
  for (int i = 0; i < N; i++) r += wO[i] * O[i];
  return r;
}
int main(void) {
  double x = %(X)s, y = %(Y)s;
  for (int i = 0; i < NA; i++) { A0[i] = 0.5 * sin(1.3 * i + 0.2) + 0.1; vA[i] = cos(0.7 * i + 0.4); wA[i] = sin(2.1 * i); }
  for (int i = 0; i < N; i++) { O0[i] = 0.3 * cos(0.9 * i); vO[i] = sin(0.5 * i + 1.0); wO[i] = cos(1.7 * i + 0.3); }
  for (int i = 0; i < NA; i++) uA[i] = 0.4 - 0.3 * (i %% 3);
  for (int i = 0; i < N; i++) uO[i] = 0.2 * i - 0.5;
  double A[NA], dA[NA], O[N], dO[N];
  /* reverse */
  for (int i = 0; i < NA; i++) { A[i] = A0[i]; dA[i] = wA[i]; }
  for (int i = 0; i < N; i++) { O[i] = O0[i]; dO[i] = wO[i]; }
  reset();
  %(REVCALL)s
  double rev = %(REVSCAL)s;
  for (int i = 0; i < NA; i++) rev += dA[i] * vA[i];
  for (int i = 0; i < N; i++) rev += dO[i] * vO[i];
  /* forward */
  for (int i = 0; i < NA; i++) { A[i] = A0[i]; dA[i] = vA[i]; }
  for (int i = 0; i < N; i++) { O[i] = O0[i]; dO[i] = vO[i]; }
  reset();
  double fwd = %(FWDCALL)s;
  for (int i = 0; i < NA; i++) fwd += wA[i] * dA[i];
  for (int i = 0; i < N; i++) fwd += wO[i] * dO[i];
  double fd1 = (L(1e-5, x, y, vA, vO, VX, VY) - L(-1e-5, x, y, vA, vO, VX, VY)) / 2e-5;
  double fd2 = (L(1e-6, x, y, vA, vO, VX, VY) - L(-1e-6, x, y, vA, vO, VX, VY)) / 2e-6;
  double vec0 = fwd, vec1 = 0, fdu = 0;
%(VECTOR)s
  printf("%%.15g %%.15g %%.15g %%.15g %%.15g %%.15g %%.15g\n", rev, fwd, fd1, fd2, vec0, vec1, fdu);
  return 0;
}
'''


def c_program(seed: int, kind: str):
    """(source, features) of one generated C program."""
    g = Gen(seed, kind)
    r = g.r
    stmts = [g.stmt(0, []) for _ in range(r.randrange(3, 7))]
    if kind == "omp":  # (at least one parallel loop)
        stmts.insert(r.randrange(len(stmts) + 1), g.omp_stmt())
    body = "\n  ".join(stmts)
    f = ("double f(double *a, double *b, double *o, double x, double y, int n) {\n"
         "  double s = x, t = 0.5 * y;\n"
         "  double loc[8];\n  for (int k = 0; k < 8; k++) loc[k] = 0.1 * k + a[k %% n] * 0.2;\n"
         "  struct P ps[4];\n  for (int k = 0; k < 4; k++) { ps[k].u = b[k] * x; ps[k].v = 0.3; ps[k].k = k; }\n"
         "  double *m = (double *)malloc(n * sizeof(double));\n"
         "  for (int k = 0; k < n; k++) m[k] = a[k] * y + gl[k %% 4];\n"
         "  %s\n"
         "  double res = s + t * 0.7;\n"
         "  for (int k = 0; k < n; k++) res += m[k] * 0.3 + loc[k] * 0.2;\n"
         "  for (int k = 0; k < 4; k++) res += ps[k].u * ps[k].v + gl[k];\n"
         "  free(m);\n  return res;\n}\n" % body)
    # activity of the scalars and of o
    xm = r.choice(["out", "none", "const"])
    ym = r.choice(["out", "none", "const", "out"])
    om = r.choice(["dup", "dupnoneed", "none"])
    off = r.choice([N, N, N // 2, 1])
    na = N + off
    g.feat.add("alias" if off < N else "noalias")
    g.feat.add("x_" + xm)
    g.feat.add("y_" + ym)
    g.feat.add("o_" + om)

    def ptr(name, shadow, mark="dup"):
        if mark == "none":
            return "%s, %s" % (name, shadow)
        return "enzyme_%s, %s, %s" % (mark, name, shadow)

    def scal(name, mark, fwd):
        if mark == "const":
            return "enzyme_const, %s" % name
        if fwd:
            return ("enzyme_dup, %s, v%s" % (name, name)) if mark == "out" else "%s, v%s" % (name, name)
        return ("enzyme_out, %s" % name) if mark == "out" else name

    args_r = [ptr("A", "dA", "none" if r.random() < 0.5 else "dup"),
              ptr("A + %d" % off, "dA + %d" % off), ptr("O", "dO", om),
              scal("x", xm, False), scal("y", ym, False), "N"]
    args_f = [ptr("A", "dA"), ptr("A + %d" % off, "dA + %d" % off), ptr("O", "dO", om),
              scal("x", xm, True), scal("y", ym, True), "N"]
    active = [v for v, m in (("x", xm), ("y", ym)) if m != "const"]
    callr = "__enzyme_autodiff((void *)f, %s)" % ", ".join(args_r)
    if len(active) == 0:
        revcall, revscal = "__enzyme_autodiff_v((void *)f, %s);" % ", ".join(args_r), "0.0"
        revdecl = "extern void __enzyme_autodiff_v(void *, ...);"
        revcall = revcall
    elif len(active) == 1:
        revcall = "double g1 = %s;" % callr.replace("__enzyme_autodiff", "__enzyme_autodiff_d")
        revscal = "g1 * v%s" % active[0]
        revdecl = "extern double __enzyme_autodiff_d(void *, ...);"
    else:
        revcall = "G2 g2 = %s;" % callr.replace("__enzyme_autodiff", "__enzyme_autodiff_g")
        revscal = "g2.d0 * vx + g2.d1 * vy"
        revdecl = "extern G2 __enzyme_autodiff_g(void *, ...);"
    vdecl = "double vx = %s, vy = %s;" % ("0.0" if xm == "const" else "0.6", "0.0" if ym == "const" else "-0.45")
    fwdcall = "__enzyme_fwddiff((void *)f, %s)" % ", ".join(args_f)
    vector = ""
    if g.vector:  # vector forward mode, width 2: directions v and u
        g.feat.add("vector")
        uxy = {"x": "0.0" if xm == "const" else "-0.3", "y": "0.0" if ym == "const" else "0.55"}

        def vscal(name, mark):
            if mark == "const":
                return "enzyme_const, %s" % name
            return "%s%s, v%s, %s" % ("enzyme_dup, " if mark == "out" else "", name, name, uxy[name])
        vom = {"dup": "enzyme_dup, ", "dupnoneed": "enzyme_dupnoneed, ", "none": ""}[om]
        args_v = ["enzyme_dup, A, dA, eA", "enzyme_dup, A + %d, dA + %d, eA + %d" % (off, off, off),
                  vom + "O, dO, eO", vscal("x", xm), vscal("y", ym), "N"]
        vector = (
            "  { double eA[NA], eO[N];\n"
            "    for (int i = 0; i < NA; i++) { A[i] = A0[i]; dA[i] = vA[i]; eA[i] = uA[i]; }\n"
            "    for (int i = 0; i < N; i++) { O[i] = O0[i]; dO[i] = vO[i]; eO[i] = uO[i]; }\n"
            "    reset();\n"
            "    T2 tv = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, %s);\n"
            "    vec0 = tv.d0; vec1 = tv.d1;\n"
            "    for (int i = 0; i < NA; i++) { vec0 += wA[i] * dA[i]; vec1 += wA[i] * eA[i]; }\n"
            "    for (int i = 0; i < N; i++) { vec0 += wO[i] * dO[i]; vec1 += wO[i] * eO[i]; }\n"
            "    fdu = (L(1e-6, x, y, uA, uO, %s, %s) - L(-1e-6, x, y, uA, uO, %s, %s)) / 2e-6; }"
            % (", ".join(args_v), uxy["x"], uxy["y"], uxy["x"], uxy["y"]))
    main = MAIN % dict(N=N, NA=na, OFF=off, X="0.35", Y="0.8", REVCALL=revcall,
                       REVSCAL=revscal, FWDCALL=fwdcall, VECTOR=vector)
    decls = (revdecl + "\nextern double __enzyme_fwddiff(void *, ...);\n"
             "extern int enzyme_width;\ntypedef struct { double d0, d1; } T2;\n"
             "extern T2 __enzyme_fwddiff_2(void *, ...);\n" +
             "#define VX %s\n#define VY %s\n" % ("0.0" if xm == "const" else "0.6",
                                                 "0.0" if ym == "const" else "-0.45"))
    main = main.replace("double x = 0.35, y = 0.8;", "double x = 0.35, y = 0.8, vx = VX, vy = VY;")
    del vdecl
    src = PRELUDE + f + decls + main
    return src, g.feat


CUDA_MAIN = r'''
#define N %(N)d
static double L(double *x, double *y, double h, double s, const double *X0, const double *vX, const double *wY) {
  for (int i = 0; i < N; i++) { x[i] = X0[i] + h * vX[i]; y[i] = 0.0; }
  double r = host(x, y, s + h * 0.7, N);
  for (int i = 0; i < N; i++) r += wY[i] * y[i];
  return r;
}
int main(void) {
  double *x, *dx, *y, *dy;
  cudaMallocManaged(&x, 8 * N); cudaMallocManaged(&dx, 8 * N); cudaMallocManaged(&y, 8 * N);
  cudaMallocManaged(&dy, 8 * N);
  double X0[N], vX[N], wY[N];
  for (int i = 0; i < N; i++) { X0[i] = 0.4 * sin(0.9 * i + 0.3) + 0.2; vX[i] = cos(1.1 * i); wY[i] = sin(0.4 * i + 1.0); }
  double s = 0.45;
  for (int i = 0; i < N; i++) { x[i] = X0[i]; dx[i] = 0; y[i] = 0; dy[i] = wY[i]; }
  double ds = __enzyme_autodiff((void *)host, enzyme_dup, x, dx, enzyme_dup, y, dy, s, N);
  double rev = ds * 0.7;
  for (int i = 0; i < N; i++) rev += dx[i] * vX[i];
  for (int i = 0; i < N; i++) { x[i] = X0[i]; dx[i] = vX[i]; y[i] = 0; dy[i] = 0; }
  double fwd = __enzyme_fwddiff((void *)host, enzyme_dup, x, dx, enzyme_dup, y, dy, s, 0.7, N);
  for (int i = 0; i < N; i++) fwd += wY[i] * dy[i];
  double fd1 = (L(x, y, 1e-5, s, X0, vX, wY) - L(x, y, -1e-5, s, X0, vX, wY)) / 2e-5;
  double fd2 = (L(x, y, 1e-6, s, X0, vX, wY) - L(x, y, -1e-6, s, X0, vX, wY)) / 2e-6;
  printf("%%.15g %%.15g %%.15g %%.15g\n", rev, fwd, fd1, fd2);
  return 0;
}
'''


def cuda_program(seed: int):
    """(source, features) of one generated CUDA program: random kernels launched from ``host``."""
    r = random.Random(seed)
    feat = {"cuda"}
    blk = r.choice([4, 8, 16])

    def ex(v):
        e = v
        for _ in range(r.randrange(1, 4)):
            e = r.choice(["sin(%s)", "(%s * 0.8 + s)", "tanh(%s * s)", "(%s * %s)", "exp(0.2 * tanh(%s))",
                          "sqrt(1.0 + %s * %s)"]).replace("%s", e)
        return e

    kernels, launches = [], []
    for k in range(r.randrange(1, 4)):
        c = r.randrange(9)
        if c == 5:
            feat.add("devfn")
            body = ("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) y[i] = dmix(y[i], %s, s);" % ex("x[i]"))
        elif c == 6:
            body = grid_stride_body(r, blk, ex, feat, k)
        elif c == 7:
            feat.add("inplace")
            body = ("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) { double v = y[i]; y[i] = sin(v) * v + %s; }" % ex("x[i]"))
        elif c == 8:
            feat.add("threadloop")
            body = ("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) { double acc = y[i]; for (int k = 0; k < 4; k++) acc = acc * 0.6 + %s * x[(i + k) %% n];"
                    " y[i] = acc; }" % ex("acc"))
        elif c == 0:
            feat.add("elementwise")
            body = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] += %s;" % ex("x[i]")
        elif c == 1:
            feat.add("stencil")
            body = ("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i > 0 && i < n - 1) y[i] = %s + 0.5 * (x[i - 1] - x[i + 1]) * s;" % ex("x[i]"))
        elif c == 2:
            feat.update({"shared", "sync", "atomic"})
            body = ("__shared__ double sh[%d];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  sh[threadIdx.x] = i < n ? %s : 0.0;\n  __syncthreads();\n"
                    "  for (int st = blockDim.x / 2; st > 0; st /= 2) {\n"
                    "    if (threadIdx.x < st) sh[threadIdx.x] += sh[threadIdx.x + st];\n    __syncthreads();\n  }\n"
                    "  if (threadIdx.x == 0) atomicAdd(&y[blockIdx.x %% n], sh[0]);" % (blk, ex("x[i]")))
        elif c == 3:
            feat.add("atomic")
            body = ("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) atomicAdd(&y[(i * 3) %% n], %s);" % ex("x[i]"))
        else:
            feat.update({"shared", "sync"})
            body = ("__shared__ double sh[%d];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  sh[threadIdx.x] = i < n ? x[i] : 0.0;\n  __syncthreads();\n"
                    "  int o = (threadIdx.x + 1) %% blockDim.x;\n"
                    "  if (i < n) y[i] += %s;" % (blk, ex("sh[o]")))
        kernels.append("__global__ void k%d(const double *x, double *y, double s, int n) {\n  %s\n}\n" % (k, body))
        if c == 6 and "gridstride2d" in feat and "2d%d" % k in feat:
            launches.append("k%d<<<dim3(2, 2), dim3(2, %d)>>>(x, y, s, n);" % (k, blk // 2))
        elif c == 6:
            launches.append("k%d<<<2, %d>>>(x, y, s, n);" % (k, blk))
        else:
            launches.append("k%d<<<(n + %d) / %d, %d>>>(x, y, s, n);" % (k, blk - 1, blk, blk))
        if r.random() < 0.4:
            feat.add("host_loop")
            launches.append("for (int i = 0; i < n; i++) x2[i] = x[i] * 0.9 + y[i] * 0.1;")
            launches.append("x = x2;")
    host = ("double host(double *x, double *y, double s, int n) {\n"
            "  double *x2; cudaMallocManaged(&x2, 8 * n);\n  %s\n"
            "  double r = 0;\n  for (int i = 0; i < n; i++) r += y[i] * x[i];\n  cudaFree(x2);\n  return r;\n}\n"
            % "\n  ".join(launches))
    pre = ("#include <stdio.h>\n#include <math.h>\nextern double __enzyme_autodiff(void *, ...);\n"
           "extern double __enzyme_fwddiff(void *, ...);\nextern int enzyme_dup, enzyme_const;\n"
           "__device__ double dmix(double u, double v, double s) { return u * tanh(v) + s * v * v; }\n")
    return pre + "".join(kernels) + host + CUDA_MAIN % dict(N=r.choice([13, 24, 7])), feat


def grid_stride_body(r, blk, ex, feat, k):
    """The body of a kernel with a grid-stride loop (fewer threads than elements: each thread runs several
    trips): elementwise, per-thread sums meeting in an atomicAdd, a 2-D grid-stride over rows of 3 (launched on
    a 2 x 2 grid of 2 x blk/2 blocks; feature ``2d<k>``), or a block-stride loop with a __shared__ tree reduction
    and barriers inside."""
    feat.add("gridstride")
    loop = "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
    c = r.randrange(4)
    if c == 1:
        feat.add("atomic")
        return ("double acc = 0.0;\n  " + loop + "    acc += %s;\n"
                "  atomicAdd(&y[(blockIdx.x * blockDim.x + threadIdx.x) %% n], acc);" % ex("x[i]"))
    if c == 2:
        feat.update({"gridstride2d", "2d%d" % k})
        return ("int rows = n / 3;\n"
                "  for (int q = blockIdx.y * blockDim.y + threadIdx.y; q < rows; q += blockDim.y * gridDim.y)\n"
                "    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < 3; c += blockDim.x * gridDim.x)\n"
                "      y[q * 3 + c] = y[q * 3 + c] * 0.5 + %s;" % ex("x[q * 3 + c]"))
    if c == 3:
        feat.update({"shared", "sync", "atomic"})
        return ("__shared__ double sh[%d];\n  int t = threadIdx.x;\n"
                "  for (int base = blockIdx.x * %d; base < n; base += %d * gridDim.x) {\n"
                "    int i = base + t;\n    sh[t] = i < n ? %s : 0.0;\n    __syncthreads();\n"
                "    for (int st = %d; st > 0; st /= 2) {\n      if (t < st) sh[t] += sh[t + st];\n"
                "      __syncthreads();\n    }\n"
                "    if (t == 0) atomicAdd(&y[(base / %d) %% n], sh[0]);\n    __syncthreads();\n  }"
                % (blk, blk, blk, ex("x[i]"), blk // 2, blk))
    return loop + "    y[i] = y[i] * 0.7 + %s;" % ex("x[i]")


def check(line: str):
    """'ok' / 'wrong: ...' / 'nonsmooth' / 'nonfinite' for one output line ``rev fwd fd1 fd2 [vec0 vec1 fdu]``
    (vec0, vec1: the two tangents of vector forward mode along v and u; fdu: the finite difference along u)."""
    try:
        vals = list(map(float, line.split()))
        rev, fwd, fd1, fd2 = vals[:4]
    except ValueError:
        return "bad-output: " + line[:200]
    if len(vals) == 7:
        vec0, vec1, fdu = vals[4:]
        if not (abs(vec0 - fwd) <= 1e-9 * (1 + abs(fwd))):
            return "wrong: vector tangent 0 %r, forward %r" % (vec0, fwd)
        if abs(fdu) < 1e12 and abs(fd1 - fd2) <= 1e-7 * (1 + abs(fd2)) and \
                not abs(vec1 - fdu) <= 1e-6 * (1 + abs(fdu)):
            return "wrong: vector tangent 1 %r, finite difference %r" % (vec1, fdu)
    if not all(map(lambda v: abs(v) < 1e12, (fd1, fd2))):
        return "nonfinite"  # (the generated function overflows at this point: nothing to compare)
    scale = 1.0 + abs(fd2)
    if not (abs(rev - fwd) <= 1e-9 * (1 + abs(rev))):
        return "wrong: rev %r fwd %r (fd %r)" % (rev, fwd, fd2)
    if abs(fd1 - fd2) > 1e-7 * scale:
        return "nonsmooth"
    if abs(rev - fd2) > 1e-6 * scale:
        return "wrong: rev %r fwd %r fd %r" % (rev, fwd, fd2)
    return "ok"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0:50")
    ap.add_argument("--levels", default="O0,O2,O3")
    ap.add_argument("--kind", default="c,omp,cuda")
    ap.add_argument("--out", default=None)
    ap.add_argument("--pgcc", default=str(Path(sys.executable).with_name("pgcc")))
    ap.add_argument("--keep", action="store_true", help="keep every program, not only failing ones")
    a = ap.parse_args(argv)
    lo, hi = map(int, a.seeds.split(":"))
    out = Path(a.out or tempfile.mkdtemp(prefix="fuzz_ad_"))
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for kind in a.kind.split(","):
        for seed in range(lo, hi):
            if kind == "cuda":
                src, feat = cuda_program(seed)
                path = out / ("%s%d.cu" % (kind, seed))
            else:
                src, feat = c_program(seed, kind)
                path = out / ("%s%d.c" % (kind, seed))
            path.write_text(src)
            bad = False
            for lvl in a.levels.split(","):
                exe = out / ("%s%d_%s" % (kind, seed, lvl))
                flags = ["-" + lvl, "-lm"] + (["-fopenmp"] if kind == "omp" else []) + \
                        (["--cpuify"] if kind == "cuda" else [])
                try:
                    c = subprocess.run([a.pgcc, str(path), "-o", str(exe), *flags], capture_output=True,
                                       text=True, timeout=300)
                except subprocess.TimeoutExpired:
                    res = "compile-timeout"
                else:
                    if c.returncode < 0:
                        res = "crash: pgcc killed by signal %d" % -c.returncode
                    elif c.returncode != 0:
                        errs = [ln for ln in c.stderr.splitlines() if "error" in ln] or \
                            c.stderr.strip().splitlines() or ["?"]
                        msg = errs[0]
                        kindmsg = "crash" if ("Traceback" in c.stderr or "internal" in c.stderr) else "error"
                        res = "%s: %s" % (kindmsg, msg[:300])
                    else:
                        env = dict(os.environ, OMP_NUM_THREADS="2")
                        try:
                            p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, env=env)
                            res = check(p.stdout.strip()) if p.returncode == 0 else "run-fail rc=%d %s" % (
                                p.returncode, p.stderr[-200:])
                        except subprocess.TimeoutExpired:
                            res = "run-timeout"
                        exe.unlink(missing_ok=True)
                tag = res.split(":")[0]
                counts["%s %s %s" % (kind, lvl, tag)] = counts.get("%s %s %s" % (kind, lvl, tag), 0) + 1
                if tag not in ("ok", "nonsmooth", "nonfinite"):
                    bad = True
                print("%s %d %s %s [%s]" % (kind, seed, lvl, res, ",".join(sorted(feat))), flush=True)
            if not bad and not a.keep:
                path.unlink()
    print("summary:")
    for k in sorted(counts):
        print("  %-30s %d" % (k, counts[k]))
    print("programs kept in", out)


if __name__ == "__main__":
    main()
