"""Affine conditions in loop nests: the frontend emits affine.if for `if` conditions that are conjunctions of
comparisons of affine expressions of loop indices, so guarded statements stay in their SCoP (a nussinov-style
dynamic program is scheduled as a whole); affine.if results (scalars assigned in a branch) are demoted like
iter_args."""

import json
import re

from conftest import assert_output_like_gcc, run_pgcc

# A folding-score table in the shape of PolyBench's nussinov: every update of t[i][j] is guarded by affine
# conditions, written the way C programs write them (j - 1 >= 0, i + 1 < n, && of both, i < j - 1).
FOLD = """
#include <stdio.h>
#ifndef N
#define N 61
#endif
#define pair_score(a, b) (((a) + (b)) == 3 ? 1 : 0)
#define better(x, y) ((x >= y) ? x : y)
static char seq[N];
static int t[N][N];

static void kernel(int n, char s[N], int t[N][N])
{
  for (int i = n - 1; i >= 0; i--)
    for (int j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        t[i][j] = better(t[i][j], t[i][j - 1]);
      if (i + 1 < n)
        t[i][j] = better(t[i][j], t[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < n) {
        if (i < j - 1)
          t[i][j] = better(t[i][j], t[i + 1][j - 1] + pair_score(s[i], s[j]));
        else
          t[i][j] = better(t[i][j], t[i + 1][j - 1]);
      }
      for (int k = i + 1; k < j; k++)
        t[i][j] = better(t[i][j], t[i][k] + t[k + 1][j]);
    }
}

int main(void)
{
  for (int i = 0; i < N; i++)
    seq[i] = (char)((i * 7 + i / 3) % 4);
  kernel(N, seq, t);
  long sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++)
      sum = sum * 31 + t[i][j];
  printf("%ld %d %d\\n", sum, t[0][N - 1], t[N / 2][N - 1]);
  return 0;
}
"""


# the body of FOLD's j loop: every update of t[i][j]
FOLD_BODY = FOLD[FOLD.index("      if (j - 1 >= 0)"):FOLD.index("t[k + 1][j]);") + len("t[k + 1][j]);")]


def _scops(tmp, src_text, name="k.c", flags=()):
    src = tmp / name
    src.write_text(src_text)
    r = run_pgcc([src, "-O3", *flags, "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["scops"]


def _mlir(tmp, src_text, stage="cleanup"):
    src = tmp / "k.c"
    src.write_text(src_text)
    r = run_pgcc([src, "-O3", f"--emit={stage}", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_guarded_nest_is_one_scop(tmp):
    scop = next(s for s in _scops(tmp, FOLD) if s["function"] == "kernel")
    assert scop["status"] == "modelled" and not scop.get("reason"), scop.get("reason")
    domains = [st["domain"] for st in scop["statements"]]
    # the three guarded updates, their else branch and the k loop's update are all statements of the SCoP
    assert len(domains) == 5 and sum("i2" in d for d in domains) == 1
    # the diagonal case (else branch of i < j - 1) is the statement whose domain fixes j
    assert any("i1 = " in d for d in domains)
    # the schedule runs anti-diagonals: i and j in one wavefront dimension
    assert "i0 + i1" in scop["schedule"] or "-i0 + i1" in scop["schedule"]


def test_guarded_nest_keeps_output(tmp):
    src = tmp / "fold.c"
    src.write_text(FOLD)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"], ["--fusion=max"], ["--no-polyhedral"]),
                           threads=(1, 2, 3))


CONDITIONS = """
void f(int n, unsigned m, int a[n][n], int *p)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == 2 * j + 1 && j <= n - 3)
        a[i][j] = 1;
      if (i != j)
        a[i][j] += 2;
      if (i * j > 4)
        a[i][j] += 3;
      if (i < m)
        a[i][j] += 4;
      if (i < *p)
        a[i][j] += 5;
    }
}
"""


def test_only_affine_conditions_become_affine_if(tmp):
    text = _mlir(tmp, CONDITIONS, stage="mlir")
    # the conjunction of an equality and an inequality is one affine.if; !=, products of indices, unsigned
    # comparisons and memory reads stay scf.if
    assert text.count("affine.if") == 1
    assert text.count("scf.if") == 4
    sets = [line for line in text.splitlines() if "affine_set<" in line]
    assert len(sets) == 1 and "(d0, d1)[s0]" in sets[0], sets
    assert "d0 - (d1 * 2 + 1) == 0" in sets[0] and "-d1 + s0 - 3 >= 0" in sets[0], sets


SCALAR_BRANCH = """
#include <stdio.h>
#define N 40
static double A[N][N], B[N][N];
int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (i * 3 + j) % 7;
  for (int i = 1; i < N; i++)
    for (int j = 0; j < N; j++) {
      double v = A[i - 1][j];
      if (j > i)
        v = v * 0.5 + A[i][j];
      B[i][j] = v;
    }
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += B[i][j] * (i + 1);
  printf("%.6f\\n", s);
  return 0;
}
"""


def test_scalar_assigned_in_affine_branch_is_demoted(tmp):
    scop = next(s for s in _scops(tmp, SCALAR_BRANCH) if s["function"] == "main")
    assert scop["status"] == "modelled" and not scop.get("reason"), scop.get("reason")
    # v's two values (the branch's, j > i, and the untaken branch's, j <= i) are stored to one cell by two
    # statements whose domains split the (i, j) square at the guard: demoted to a rank-0 memref, then folded
    # into B[i][j], where v's value goes (cell_folding.py)
    at_line_13 = [st for st in scop["statements"] if st["location"].endswith(":13:7")]
    assert len(at_line_13) == 2, scop["statements"]
    written = {re.sub(r"S\d+", "S", st["writes"].split(":")[0]) for st in at_line_13}
    assert written == {"{ S[i0, i1] -> A1[i0, i1] "}, written
    assert scop["arrays"]["A1"].startswith("memref<40x40xf64")
    assert sorted("i1 > i0" in st["domain"] for st in at_line_13) == [False, True]
    assert_output_like_gcc(tmp / "k.c", tmp, threads=(1, 2))


RECURRENCE = """
void prefix(int n, double a[n], double b[n])
{
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + b[i];
}
"""


def test_schedule_in_original_order_without_parallel_loop_is_not_applied(tmp):
    scop = next(s for s in _scops(tmp, RECURRENCE) if s["function"] == "prefix")
    assert "keeps the original order" in scop["reason"], scop.get("reason")


def test_original_order_is_recognized(tmp):
    import islpy as isl

    from polygeist_py.affine import experiments, profitability
    from polygeist_py.affine.isl_model import maps
    from polygeist_py.affine.legality import flat_map

    src = tmp / "fold.c"
    src.write_text(FOLD)
    model = experiments.load(str(src)).scop("kernel.scop0").model
    flat = flat_map(model, model.original)
    assert profitability.keeps_original_order(model, flat)
    # the same loops with the outer one run backwards: every statement keeps its instances, in another order
    width = maps(flat)[0].dim(isl.dim_type.out)
    xs = ", ".join(f"x{k}" for k in range(width))
    ys = ", ".join("-x1" if k == 1 else f"x{k}" for k in range(width))
    reversed_outer = flat.apply_range(isl.UnionMap.read_from_str(model.ctx, f"{{ [{xs}] -> [{ys}] }}"))
    assert reversed_outer.domain().is_equal(flat.domain())
    assert not profitability.keeps_original_order(model, reversed_outer)


# The same dynamic program with a best-so-far scalar: each (i, j) iteration writes `best` before reading it, so
# its live range is one iteration, but in the original order it chains the end of each row to the start of
# the next one.
BEST = FOLD.replace(FOLD_BODY, """      int best = t[i][j - 1], cand;
      if (t[i + 1][j] > best)
        best = t[i + 1][j];
      if (j - i > 1) {
        cand = t[i + 1][j - 1] + pair_score(s[i], s[j]);
        if (cand > best)
          best = cand;
      }
      for (int k = i + 1; k < j; k++) {
        cand = t[i][k] + t[k + 1][j];
        best = better(cand, best);
      }
      t[i][j] = best;""")


def test_best_so_far_scalar_lets_the_nest_run_as_a_wavefront(tmp):
    assert "int best" in BEST
    scop = next(s for s in _scops(tmp, BEST) if s["function"] == "kernel")
    assert scop["status"] == "modelled", scop.get("reason")
    # the scalar is private to an (i, j) iteration: the schedule is a wavefront whose inner loop is parallel
    assert '"parallel"' in scop["schedule_tree"] or "mark: \"parallel\"" in scop["schedule_tree"]
    src = tmp / "best.c"
    src.write_text(BEST)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"]), threads=(1, 2, 3))
