"""Loop-invariant code motion of read-only calls (polygeist_py/licm.py, effects.py): Enzyme's and Tapir's
normalization `out[i] = in[i] / mag(in, n)` leaves the call out of sequential and OpenMP loops (checked on the
MLIR after cleanup and on the output against gcc), and stays put where moving it would be wrong (the loop writes
`in`; `mag` writes a global; `out` may alias `in`), in `for` and `while` loops."""

from __future__ import annotations

from mlir import ir

from conftest import assert_output_like_gcc, run_pgcc

LOOPS = ("scf.for", "affine.for", "scf.while", "scf.parallel", "affine.parallel")

PROGRAM = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int calls;
double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
double mag_counted(const double *x, int n) { calls++; return mag(x, n); }
/* recursion: read-only too */
double rsum(const double *x, int n) { return n == 0 ? 0 : x[n - 1] + rsum(x, n - 1); }

void norm_seq(double *restrict out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
void norm_omp(double *restrict out, const double *in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
void norm_rec(double *restrict out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / rsum(in, n);
}
/* a call under a condition of the induction variable: a branch of its own, then first-iteration speculation */
void norm_some(double *restrict out, const double *in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) if ((i & 1) == 0) out[i] = in[i] / mag(in, n); else out[i] = 0;
}
/* negative: the loop writes what mag reads */
void norm_writes_in(double *restrict out, double *in, int n) {
  for (int i = 0; i < n; i++) { out[i] = in[i] / mag(in, n); in[i] = 1.0; }
}
/* negative: the callee writes a global */
void norm_counted(double *restrict out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag_counted(in, n);
}
/* negative: out may alias in */
void norm_alias(double *out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
/* negative, parallel: out may alias in (an iteration's store may change what another iteration's mag reads) */
void norm_omp_alias(double *out, const double *in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
/* a pure helper with invariant arguments in a stencil (a local table: distinct from the restrict output) */
double weight(const double *w, int k) { return w[k] / (w[0] + w[1] + w[2]); }
void stencil(double *restrict b, const double *a, int n) {
  double w[3] = {1, 2, 1};
  for (int i = 1; i < n - 1; i++) b[i] = weight(w, 0) * a[i - 1] + weight(w, 1) * a[i] + weight(w, 2) * a[i + 1];
}
/* a loop-invariant strlen in the loop's condition */
int upcase(char *restrict o, const char *s) {
  int c = 0;
  for (int i = 0; i < strlen(s); i++) { o[i] = s[i] - 32; c++; }
  o[c] = 0;
  return c;
}
/* a table lookup through a read-only call, in a loop nest: invariant in the inner loop only */
static const double table[4] = {0.5, 1.5, 2.5, 3.5};
double lookup(int k) { return table[k & 3]; }
void scale_rows(double *restrict m, int rows, int cols) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) m[r * cols + c] *= lookup(r);
}

/* while loops (scf.while): the call leaves the body under the condition's first evaluation */
void norm_while(double *restrict out, const double *in, int n) {
  int i = 0;
  while (i < n) { out[i] = in[i] / mag(in, n); i++; }
}
void norm_strided(double *restrict out, const double *in, int n, int first, int step) {
  for (int i = first; i < n; i += step) out[i] = in[i] / mag(in, n);
}
/* a condition that reads memory: evaluated once more before the loop (strlen in the body of a scan) */
int shift_chars(char *restrict o, const char *s) {
  int i = 0;
  while (s[i]) { o[i] = s[i] + (char)strlen(s); i++; }
  o[i] = 0;
  return i;
}
/* negative: the condition writes (it cannot be evaluated once more), the body writes what mag reads */
int ticks;
int tick(int n) { return ticks++ < n; }
void norm_ticking(double *restrict out, const double *in, int n) {
  int i = 0;
  while (tick(n)) { out[i] = in[i] / mag(in, n); i++; }
}
void norm_while_writes_in(double *restrict out, double *in, int n) {
  int i = 0;
  while (i < n) { out[i] = in[i] / mag(in, n); in[i] = 2.0; i++; }
}

/* sqrt of an invariant (a math op: upstream's LICM moves it) beside a read-only call */
void shift(double *restrict y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * sqrt(a) + mag(x, 2);
}

int main(void) {
  enum { N = 9 };
  double in[N], out[N], s = 0;
  for (int i = 0; i < N; i++) in[i] = 0.25 + i % 4;
  norm_seq(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 1);
  norm_omp(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 2);
  norm_rec(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 3);
  norm_some(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 4);
  norm_some(out, (const double *)0, 0);
  norm_counted(out, in, N); for (int i = 0; i < N; i++) s += out[i];
  norm_alias(out, in, N); for (int i = 0; i < N; i++) s += out[i] * 3;
  norm_omp_alias(out, in, N); for (int i = 0; i < N; i++) s += out[i] * 5;
  norm_seq(out, (const double *)0, 0);   /* zero trips with a NULL input: mag is never called */
  norm_omp(out, (const double *)0, 0);
  stencil(out, in, N); for (int i = 1; i < N - 1; i++) s += out[i];
  norm_writes_in(out, in, N); for (int i = 0; i < N; i++) s += out[i] + in[i];
  shift(out, in, 2.0, N); for (int i = 0; i < N; i++) s += out[i];
  for (int i = 0; i < N; i++) in[i] = 0.25 + i % 5;
  norm_while(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 5);
  norm_while(out, (const double *)0, 0);  /* the body never runs: neither may mag */
  for (int i = 0; i < N; i++) out[i] = -1;
  norm_strided(out, in, N, 1, 3); for (int i = 0; i < N; i++) s += out[i] * (i + 6);
  norm_strided(out, (const double *)0, 0, 1, 3);
  norm_ticking(out, in, N); for (int i = 0; i < N; i++) s += out[i] * (i + 7);
  norm_while_writes_in(out, in, N); for (int i = 0; i < N; i++) s += out[i] + in[i];
  char o2[16]; int k2 = shift_chars(o2, "ABCD");
  printf("%d %s %d ", k2, o2, ticks);
  double m[12]; for (int i = 0; i < 12; i++) m[i] = i;
  scale_rows(m, 3, 4); for (int i = 0; i < 12; i++) s += m[i];
  char o[16]; int k = upcase(o, "hello");
  printf("%.15g %d %d %s\n", s, calls, k, o);
  return 0;
}
"""


def _functions(text):
    m = ir.Module.parse(text)
    return m, {ir.StringAttr(f.attributes["sym_name"]).value: f for f in m.body.operations
               if f.operation.name == "func.func"}


def _calls_in_loops(f, callee) -> list[bool]:
    """For each call of `callee` in `f`: whether it is nested in a loop."""
    out = []

    def visit(op):
        if op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == callee:
            p, inside = op.parent, False
            while p is not None and p.name != "func.func":
                inside = inside or p.name in LOOPS
                p = p.parent
            out.append(inside)
        return ir.WalkResult.ADVANCE

    f.operation.walk(visit)
    return out


def _cleanup(tmp, src, *flags):
    p = tmp / "p.c"
    p.write_text(src)
    r = run_pgcc([p, "-O2", "-S", "--emit=cleanup", "-o", tmp / "p.mlir", *flags])
    assert r.returncode == 0, r.stderr
    return (tmp / "p.mlir").read_text()


def test_invariant_calls_leave_sequential_and_openmp_loops(tmp):
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        _, fs = _functions(_cleanup(tmp, PROGRAM, "-fopenmp"))
        assert any(op.name == "scf.parallel" for op in fs["norm_omp"].regions[0].blocks[0].operations)
        for name, callee in (("norm_seq", "mag"), ("norm_omp", "mag"), ("norm_rec", "rsum"), ("norm_some", "mag"),
                             ("stencil", "weight"), ("upcase", "strlen"), ("shift", "mag"),
                             ("norm_while", "mag"), ("norm_strided", "mag"), ("shift_chars", "strlen")):
            assert _calls_in_loops(fs[name], callee) and not any(_calls_in_loops(fs[name], callee)), name
        for name, callee in (("norm_writes_in", "mag"), ("norm_counted", "mag_counted"), ("norm_alias", "mag"),
                             ("norm_omp_alias", "mag"),
                             ("norm_ticking", "mag"), ("norm_while_writes_in", "mag")):
            assert _calls_in_loops(fs[name], callee) == [True], name
        assert "math.sqrt" in str(fs["shift"]) and not any(
            "math.sqrt" in str(o) for o in fs["shift"].regions[0].blocks[0].operations if o.name in LOOPS)
        # invariant in the inner loop only: out of it, still in the outer one
        assert _calls_in_loops(fs["scale_rows"], "lookup") == [True]
        outer = [o for o in fs["scale_rows"].regions[0].blocks[0].operations if o.name in LOOPS]
        assert len(outer) == 1
        inner = [o for o in outer[0].regions[0].blocks[0].operations if o.name in LOOPS]
        assert len(inner) == 1 and "lookup" not in str(inner[0])
        # out of the while loops, behind their first test (the body may run zero times)
        for name in ("norm_while", "norm_strided", "shift_chars"):
            top = [o.name for o in fs[name].regions[0].blocks[0].operations]
            assert "scf.while" in top and "scf.if" in top[:top.index("scf.while")], name


def test_hoisted_programs_print_what_gcc_prints(tmp):
    p = tmp / "prog.c"
    p.write_text(PROGRAM)
    assert_output_like_gcc(p, tmp, flag_sets=((), ("-fopenmp",)), threads=(1, 2))


def test_declared_pure_and_const_functions(tmp):
    """`__attribute__((pure))`/`((const))` on a function defined elsewhere let its calls move; without them the
    call stays (an unknown function may write anything)."""
    src = r"""
    __attribute__((pure)) double norm2(const double *x, int n);
    __attribute__((const)) double twice(double x);
    double unknown(const double *x, int n);
    void f(double *restrict out, const double *in, double a, int n) {
      for (int i = 0; i < n; i++) out[i] = in[i] / norm2(in, n) + twice(a);
    }
    void g(double *restrict out, const double *in, int n) {
      for (int i = 0; i < n; i++) out[i] = in[i] / unknown(in, n);
    }
    """
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        _, fs = _functions(_cleanup(tmp, src))
        assert _calls_in_loops(fs["f"], "norm2") == [False]
        assert _calls_in_loops(fs["f"], "twice") == [False]
        assert _calls_in_loops(fs["g"], "unknown") == [True]


def test_effects_summaries():
    """effects.py on hand-written MLIR: read-only through calls and recursion, argmemonly, writes to globals,
    libm declarations."""
    from polygeist_py.effects import ANY, ARGS, NONE, EffectAnalysis
    text = """
    memref.global "private" @g : memref<f64> = dense<0.0>
    func.func private @sqrt(f64) -> f64
    func.func private @opaque(memref<?xf64>)
    func.func @leaf(%a: memref<?xf64>, %i: index) -> f64 {
      %v = memref.load %a[%i] : memref<?xf64>
      %r = func.call @sqrt(%v) : (f64) -> f64
      return %r : f64
    }
    func.func @rec(%a: memref<?xf64>, %n: index) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.cmpi eq, %n, %c0 : index
      %r = scf.if %z -> f64 {
        %c = arith.constant 0.0 : f64
        scf.yield %c : f64
      } else {
        %m = arith.subi %n, %c1 : index
        %x = func.call @leaf(%a, %m) : (memref<?xf64>, index) -> f64
        %y = func.call @rec(%a, %m) : (memref<?xf64>, index) -> f64
        %s = arith.addf %x, %y : f64
        scf.yield %s : f64
      }
      return %r : f64
    }
    func.func @writer(%a: memref<?xf64>, %b: memref<?xf64>, %i: index) {
      %v = memref.load %a[%i] : memref<?xf64>
      memref.store %v, %b[%i] : memref<?xf64>
      %t = memref.alloca() : memref<4xf64>
      memref.store %v, %t[%i] : memref<4xf64>
      return
    }
    func.func @global_writer(%v: f64) {
      %g = memref.get_global @g : memref<f64>
      memref.store %v, %g[] : memref<f64>
      return
    }
    func.func @calls_opaque(%a: memref<?xf64>) {
      func.call @opaque(%a) : (memref<?xf64>) -> ()
      return
    }
    """
    with ir.Context():
        a = EffectAnalysis(ir.Module.parse(text))
        s = a.summary
        assert s["sqrt"].describe() == "readnone"
        assert (s["leaf"].reads, s["leaf"].writes, s["leaf"].read_args) == (ARGS, NONE, {0})
        assert (s["rec"].reads, s["rec"].writes, s["rec"].read_args) == (ARGS, NONE, {0})
        assert (s["writer"].reads, s["writer"].writes) == (ARGS, ARGS)
        assert (s["writer"].read_args, s["writer"].write_args) == ({0}, {1})  # (the local alloca is no effect)
        assert s["global_writer"].writes == ANY
        assert s["calls_opaque"].describe() == "unknown"
