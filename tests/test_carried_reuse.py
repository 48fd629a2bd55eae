"""Loop-carried reuse in registers (scalar_promotion.py): a load of the element that the previous iteration of an
innermost loop stored becomes a value carried from that iteration; the store stays, the output does not change,
and the load stays when another store to the array could intervene or the distance is not one iteration."""

import re

from mlir import ir

from conftest import assert_output_like_gcc, run_pgcc
from polygeist_py.affine.scalar_promotion import promote_in

# Two tridiagonal-style sweeps: forward along each row (p[j][i] from p[j][i-1]) and backward (x[j][i] from
# x[j][i+1]).
SWEEPS = """
#include <stdio.h>
#ifndef N
#define N 90
#endif
static double p[N][N], x[N][N], w[N][N];

static void sweeps(int n, double a, double b)
{
  for (int j = 0; j < n; j++) {
    p[j][0] = 0.25;
    for (int i = 1; i < n; i++)
      p[j][i] = -b / (a * p[j][i - 1] + w[i][j]);
    x[j][n - 1] = 1.0;
    for (int i = n - 2; i >= 0; i--)
      x[j][i] = p[j][i] * x[j][i + 1] + w[j][i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      w[i][j] = 2.0 + (double)((i * 7 + j * 3) % 11) / 11.0;
  sweeps(N, 0.5, 1.5);
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += p[i][j] * (j + 1) + x[i][j];
  printf("%.17g %.17g %.17g\\n", sum, p[N / 2][N - 1], x[3][0]);
  return 0;
}
"""


def _innermost_loops(tmp, text, flags=()):
    """The bodies (text) of the innermost affine.for loops of function `sweeps` after the polyhedral stage."""
    src = tmp / "s.c"
    src.write_text(text)
    r = run_pgcc([src, "-O3", *flags, "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("@sweeps"):]
    body = body[:body.index("return")]
    loops = []
    for head in re.finditer(r"affine\.for [^\n]*\{\n", body):
        inner = body[head.end():]
        inner = inner[:inner.index("\n      }") if "\n      }" in inner else len(inner)]
        if "affine.for" not in inner:
            loops.append(head.group(0) + inner)
    return loops


def _loads(loop, array_pattern):
    return re.findall(r"affine\.load %\w+\[" + array_pattern, loop)


def test_previous_iterations_element_is_carried(tmp):
    for flags in ([], ["--no-parallel"]):
        loops = _innermost_loops(tmp, SWEEPS, flags)
        recurrences = [loop for loop in loops if "arith.divf" in loop]
        assert recurrences, loops
        for loop in recurrences:
            # the division's operand comes from the iteration before: an iter_arg, no load of p[j][i - 1]
            assert "iter_args" in loop.split("\n")[0], loop
            assert not _loads(loop, r"%\w+, %\w+ - 1\]"), loop
            assert "affine.store" in loop  # the element is still written


def test_sweeps_print_what_gcc_prints(tmp):
    src = tmp / "sweeps.c"
    src.write_text(SWEEPS)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"], ["--no-unroll-jam"]), threads=(1, 2))


# promote_in on hand-written loops: the load of p[j][i - d] before the store of p[j][i], with other accesses
LOOP = """
func.func @f(%p: memref<10x10xf64>, %q: memref<10x10xf64>) {
  affine.for %j = 0 to 10 {
    affine.for %i = 2 to 10 {
      %v = affine.load %p[%j, %i - DIST] : memref<10x10xf64>
      %w = arith.addf %v, %v : f64
      affine.store %w, %p[%j, %i] : memref<10x10xf64>
      OTHER
    }
  }
  return
}
"""


def _promoted(dist=1, other=""):
    """(number of elements promote_in carried, the resulting module text)."""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(LOOP.replace("DIST", str(dist)).replace("OTHER", other))
        done = promote_in(list(module.body.operations))
        return done, str(module)


def test_carried_only_at_distance_one_without_intervening_stores():
    done, text = _promoted()
    assert done == 1 and "iter_args" in text and "%i - 1]" not in text.split("iter_args")[1]
    assert _promoted(dist=2)[0] == 0
    # another store to p in the loop (it may write p[j][i - 1] between the two iterations)
    assert _promoted(other="affine.store %w, %p[%i, %j] : memref<10x10xf64>")[0] == 0
    # a store to another array is no obstacle (distinct arrays do not overlap in a SCoP)
    assert _promoted(other="affine.store %w, %q[%i, %j] : memref<10x10xf64>")[0] == 1
    # nor is a load of another element of p
    assert _promoted(other="%u = affine.load %p[%i, %j] : memref<10x10xf64>")[0] == 1


def test_two_names_of_one_global_are_not_promoted():
    text = """
memref.global "private" @g : memref<10x10xf64> = uninitialized
func.func @f() {
  %a = memref.get_global @g : memref<10x10xf64>
  %b = memref.get_global @g : memref<10x10xf64>
  affine.for %j = 0 to 10 {
    affine.for %i = 2 to 10 {
      %v = affine.load %a[%j, %i - 1] : memref<10x10xf64>
      %w = arith.addf %v, %v : f64
      affine.store %w, %a[%j, %i] : memref<10x10xf64>
      affine.store %w, %b[%i, %j] : memref<10x10xf64>
    }
  }
  return
}
"""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        assert promote_in(list(module.body.operations)) == 0
        # one name for the global: the second store is then visibly to the same array, and blocks it too
        module = ir.Module.parse(text.replace("%b[%i, %j]", "%a[%i, %j]"))
        assert promote_in(list(module.body.operations)) == 0
        module = ir.Module.parse(text.replace("      affine.store %w, %b[%i, %j] : memref<10x10xf64>\n", ""))
        assert promote_in(list(module.body.operations)) == 1
