"""Index-set splitting (Floyd-Warshall's rows run in parallel), coincidence flags checked against the
dependences, and tile sizes aligned on the innermost band member."""

import json
import re

import islpy as isl

from conftest import assert_output_like_gcc, build_gcc, run_exe, run_pgcc
from polygeist_py.affine import experiments, index_set_splitting, scheduler

FLOYD = """
#include <stdio.h>
#ifndef N
#define N 37
#endif
static int path[N][N];

static void kernel(int n, int p[N][N])
{
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        p[i][j] = p[i][j] < p[i][k] + p[k][j] ? p[i][j] : p[i][k] + p[k][j];
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      path[i][j] = i == j ? 0 : (i * 7 + j * 13) % 11 == 0 ? 999 : (i * j) % 17 + 1 + (i > j);
  kernel(N, path);
  long sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum = sum * 31 + path[i][j];
  printf("%ld %d %d\\n", sum, path[0][N - 1], path[N - 1][0]);
  return 0;
}
"""

# Floyd-Warshall's value-based dependences (p0 = n), as isl's dataflow analysis gives them.
FLOYD_DEPS = ("[p0] -> { S0[k, i, j = k] -> S0[k, i, j'] : 0 <= k < p0 and 0 <= i < p0 and k < j' < p0; "
              "S0[k, i = k, j] -> S0[k, i', j] : 0 <= k < p0 and 0 <= j < p0 and k < i' < p0; "
              "S0[k, i, j] -> S0[k, i', j] : 0 <= k < p0 and 0 <= i' < k and i = k and 0 <= j < p0; "
              "S0[k, i, j] -> S0[k + 1, i, j] : 0 <= k <= p0 - 2 and 0 <= i < p0 and 0 <= j < p0 }")


def _kernel_scop(tmp, flags=()):
    src = tmp / "fw.c"
    src.write_text(FLOYD)
    r = run_pgcc([src, "-O3", *flags, "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "kernel")


def test_floyd_warshall_rows_run_in_parallel_after_splitting(tmp):
    scop = _kernel_scop(tmp)
    assert scop["status"] == "modelled" and not scop.get("reason"), scop.get("reason")
    tree = scop["schedule_tree"]
    assert "S0__iss" in tree and 'mark: "parallel"' in tree
    # every parallel loop is a row loop (i) inside the sequential k loop
    assert tree.index('schedule: "[p0] -> [{ S0') < tree.index('mark: "parallel"')


def test_floyd_warshall_split_schedule_keeps_output(tmp):
    src = tmp / "fw.c"
    src.write_text(FLOYD)
    assert_output_like_gcc(src, tmp, ([], ["--no-parallel"], ["--fusion=max"]), threads=(1, 2, 3))


def test_split_pieces_partition_the_domain(tmp):
    src = tmp / "fw.c"
    src.write_text(FLOYD)
    model = experiments.load(str(src)).scop("kernel.scop0").model
    split = index_set_splitting.split(model)
    assert split is not None
    pieces = []
    split.domain.foreach_set(pieces.append)
    # i < k, i = k, i > k times j < k, j = k, j > k
    assert len(pieces) == 9 and all(p.get_tuple_name().startswith("S0__iss") for p in pieces)
    union = pieces[0].set_tuple_name("S0")
    for k, p in enumerate(pieces[1:], 1):
        renamed = p.set_tuple_name("S0")
        assert union.intersect(renamed).is_empty(), k
        union = union.union(renamed)
    assert isl.UnionSet.from_set(union).is_equal(model.domain)
    assert len(split.scop.statements) == 9 and len(split.accesses) == 9 * len(model.accesses)


def test_no_split_without_a_self_hyperplane(tmp):
    src = tmp / "mv.c"
    src.write_text("void mv(int n, double y[n], double A[n][n], double x[n]) {\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n"
                   "      y[i] = y[i] + A[i][j] * x[j];\n}\n")
    model = experiments.load(str(src)).scop("mv.scop0").model
    assert index_set_splitting.split(model) is None


def _tree(text):
    return isl.Schedule(text)


def test_false_coincidence_flag_is_cleared():
    """The wavefront order k, i, i + j is legal for Floyd-Warshall, but i carries row k's dependence there; a
    flag claiming i parallel (which isl set while i was below i + j) is removed, the k-only flag stays off."""
    deps = isl.UnionMap(FLOYD_DEPS)
    dom = '[p0] -> { S0[k, i, j] : 0 <= k < p0 and 0 <= i < p0 and 0 <= j < p0 }'
    wrong = _tree('{ domain: "%s", child: { schedule: "[p0] -> [{ S0[k, i, j] -> [(k)] }]", child: '
                  '{ schedule: "[p0] -> [{ S0[k, i, j] -> [(i)] }]", coincident: [ 1 ], child: '
                  '{ schedule: "[p0] -> [{ S0[k, i, j] -> [(i + j)] }]" } } } }' % dom)
    fixed = scheduler.clear_false_coincidence(wrong, deps)
    assert scheduler.first_parallel_depth(fixed) == 3
    right = _tree('{ domain: "%s", child: { schedule: "[p0] -> [{ S0[k, i, j] -> [(k)] }]", child: '
                  '{ schedule: "[p0] -> [{ S0[k, i, j] -> [(i + j)] }]", child: '
                  '{ schedule: "[p0] -> [{ S0[k, i, j] -> [(i)] }]", coincident: [ 1 ] } } } }' % dom)
    kept = scheduler.clear_false_coincidence(right, deps)
    assert scheduler.first_parallel_depth(kept) == 2


def test_tile_sizes_align_on_the_innermost_member():
    assert scheduler.band_tile_sizes((16, 64, 256), 3) == [16, 64, 256]
    assert scheduler.band_tile_sizes((16, 64, 256), 2) == [64, 256]
    assert scheduler.band_tile_sizes((16, 64, 256), 4) == [16, 16, 64, 256]
    assert scheduler.band_tile_sizes((32,), 2) == [32, 32]


TRISOLV = """
#include <stdio.h>
#ifndef N
#define N 37
#endif
static double L[N][N], x[N], b[N];

static void kernel(int n, double L[N][N], double x[N], double b[N])
{
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    b[i] = 0.5 + i % 7;
    for (int j = 0; j <= i; j++)
      L[i][j] = (i == j) ? 2.0 + i % 3 : 1.0 / (i + j + 3.0);
  }
  kernel(N, L, x, b);
  for (int i = 0; i < N; i++)
    printf("%.17g\\n", x[i]);
  return 0;
}
"""


def test_triangular_rows_are_blocked_and_jammed_bit_exactly(tmp):
    """trisolv: per block of 4 rows, the columns left of the block as four independent chains (jammed), then
    each row's triangle; every row still sums in its own order, so the output is gcc's, for any n mod 4."""
    src = tmp / "ts.c"
    src.write_text(TRISOLV)
    r = run_pgcc([src, "-O3", "--emit=scop", "-o", "-"])
    scop = next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "kernel")
    assert "triangular nests blocked" in scop["reason"], scop["reason"]
    assert 'mark: "unroll-jam"' in scop["schedule_tree"] and "4*floor((i0)/4) > i1" in scop["schedule_tree"]
    r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
    kernel = r.stdout[r.stdout.index("@kernel"):]
    assert "-> (f64, f64, f64, f64)" in kernel[: kernel.index("return")]  # four rows' chains in registers
    for n in (37, 38, 39, 40, 3):
        ref = run_exe(build_gcc(src, tmp / "ref", [f"-DN={n}"]))
        r = run_pgcc([src, "-O3", f"-DN={n}", "-o", tmp / "pg"])
        assert r.returncode == 0, r.stderr
        assert run_exe(tmp / "pg").stdout == ref.stdout, n


CHOLESKY_LIKE = """
#include <stdio.h>
#define N 45
static double A[N][N];

static void update(int n, double A[N][N])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      for (int k = 0; k BOUND j; k++)
        A[i][j] -= A[i][k] * A[j][k];
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = 1.0 / (i + 2 * j + 1.0);
  update(N, A);
  for (int i = 0; i < N; i++)
    printf("%.17g %.17g\\n", A[i][i / 2], A[i][N - 1]);
  return 0;
}
"""


def test_element_beside_distinct_elements_of_its_array_is_promoted(tmp):
    """Cholesky's A[i][j] -= A[i][k] * A[j][k] (k < j): A[i][k] and A[j][k] are other elements of A (isl proves
    it from the loop bounds), so A[i][j] is carried in a register; with k <= j, A[i][k] is A[i][j] at k = j and
    the output must stay gcc's."""
    for bound in ("<", "<="):
        src = tmp / "ch.c"
        src.write_text(CHOLESKY_LIKE.replace("BOUND", bound))
        if bound == "<":
            r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
            assert r.returncode == 0, r.stderr
            kernel = r.stdout[r.stdout.index("@update"):]
            assert "iter_args" in kernel[: kernel.index("return")]
        ref = run_exe(build_gcc(src, tmp / "ref"))
        r = run_pgcc([src, "-O3", "-o", tmp / "pg"])
        assert r.returncode == 0, r.stderr
        for threads in (1, 2):
            assert run_exe(tmp / "pg", threads=threads).stdout == ref.stdout, (bound, threads)


GUARDED_LOOP = """
func.func @f(%A: memref<?x?xf64>, %n: index) {
  affine.for %k = 0 to 8 step 4 {
    affine.for %j = 0 to %n {
      affine.if affine_set<(d0, d1) : (d0 == 0)>(%k, %j) {
        %v = affine.load %A[0, %j] : memref<?x?xf64>
        affine.store %v, %A[1, %j] : memref<?x?xf64>
      }
      affine.if affine_set<(d0) : (d0 + 1 == 0)>(%k) {
        %u = affine.load %A[4, %j] : memref<?x?xf64>
        affine.store %u, %A[5, %j] : memref<?x?xf64>
      }
      %w = affine.load %A[2, %j] : memref<?x?xf64>
      affine.store %w, %A[3, %j] : memref<?x?xf64>
    }
  }
  return
}
"""


def test_invariant_guards_leave_innermost_loops():
    """A guard that cannot hold under the loop bounds (k + 1 = 0 with k >= 0) is dropped; one that does not
    change in the j loop (k = 0, although j is passed to it) is unswitched: two versions of the j loop."""
    from mlir import ir
    from polygeist_py.affine.guard_unswitching import unswitch_invariant_guards

    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(GUARDED_LOOP)
        func = module.body.operations[0]
        outer = func.regions[0].blocks[0].operations[0]
        assert unswitch_invariant_guards([outer]) == 2
        module.operation.verify()
        text = str(module)
    assert "d0 + 1 == 0" not in text and "%arg0[4" not in text
    then_part, else_part = text[text.index("affine.if"):].split("} else {")
    # then: the j loop with the guarded copy and the rest; else: the j loop with the rest only
    assert then_part.count("affine.for") == 1 and "%arg0[1, %arg3]" in then_part and "%arg0[3, %arg3]" in then_part
    assert else_part.count("affine.for") == 1 and "%arg0[1," not in else_part and "%arg0[3, %arg3]" in else_part


def test_jammed_copies_store_an_element_once(tmp):
    """gemm's k loop jammed by 4 over the j loop: C[i][j] is loaded once and stored once per four values of k
    (the copies' loads take the stored values, the overwritten stores are removed), and no guard is left in
    the innermost loops."""
    src = tmp / "gemm.c"
    src.write_text("void gemm(int n, double a, double C[n][n], double A[n][n], double B[n][n]) {\n"
                   "  for (int i = 0; i < n; i++) {\n    for (int j = 0; j < n; j++) C[i][j] *= 0.5;\n"
                   "    for (int k = 0; k < n; k++)\n      for (int j = 0; j < n; j++)\n"
                   "        C[i][j] += a * A[i][k] * B[k][j];\n  }\n}\n")
    r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    bodies = _innermost_bodies(r.stdout)
    jammed = [b for b in bodies if b.count("arith.mulf") >= 8]
    assert jammed, bodies
    for body in jammed:
        assert "affine.if" not in body
        assert body.count("affine.store") == 1, body
        c = re.search(r"affine\.store %\w+, (%\w+)\[", body).group(1)
        assert body.count(f"affine.load {c}[") <= 1, body


def _innermost_bodies(text: str) -> list:
    """The bodies of the innermost affine.for loops of printed MLIR (by brace nesting)."""
    lines, out = text.splitlines(), []
    for k, line in enumerate(lines):
        if "affine.for" not in line:
            continue
        depth, body = 0, []
        for inner in lines[k + 1:]:
            if depth == 0 and inner.strip().startswith("}"):
                break
            depth += inner.count("{") - inner.count("}")
            body.append(inner)
        if not any("affine.for" in b or "affine.parallel" in b for b in body):
            out.append("\n".join(body))
    return out


def test_two_member_bands_stream_rows_in_pieces_of_512(tmp):
    """A matrix-vector nest (two-member band) is tiled 32 x 512, a three-member one 32 x 32 x 32; an explicit
    --tile-sizes applies to both."""
    src = tmp / "mv.c"
    src.write_text("void mv(int n, double y[n], double A[n][n], double x[n]) {\n  for (int i = 0; i < n; i++) {\n"
                   "    y[i] = 0;\n    for (int j = 0; j < n; j++)\n      y[i] = y[i] + A[i][j] * x[j];\n  }\n}\n")
    trees = {}
    for flags in ([], ["--tile-sizes=16,16"]):
        r = run_pgcc([src, "-O3", "--emit=scop", *flags, "-o", "-"])
        assert r.returncode == 0, r.stderr
        trees[bool(flags)] = json.loads(r.stdout)["scops"][0]["schedule_tree"]
    assert "floor((i1)/512)" in trees[False] and "floor((i0)/32)" in trees[False]
    assert "floor((i1)/16)" in trees[True] and "512" not in trees[True]
