"""The polyhedral stage: dependences and legality on known kernels, scheduled programs print what the
untransformed ones print, the --emit=scop / --schedule interface and the Python experiments API."""

import json
import re

import islpy as isl
import pytest

from conftest import PROGRAMS, build_gcc, run_exe, run_pgcc
from polygeist_py.affine import experiments, jam_marks, legality, original_schedule
from polygeist_py.affine.legality import IllegalSchedule

KERNELS = sorted((PROGRAMS / "polybench").glob("*.c"))


def _write(tmp, name, text):
    path = tmp / name
    path.write_text(text)
    return path


def _same_relation(got: str, expected: str) -> bool:
    return isl.UnionMap(got).is_equal(isl.UnionMap(expected))


# ---------------------------------------------------------------------------------------------- dependences

REDUCTION = """
void sum(int n, double a[n], double s[1]) {
  for (int i = 0; i < n; i++)
    s[0] = s[0] + a[i];
}
"""

GEMM = """
void gemm(int n, double C[n][n], double A[n][n], double B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
}
"""

SEIDEL = """
void seidel(int t, int n, double A[n][n]) {
  for (int s = 0; s < t; s++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = (A[i-1][j] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j]) / 5.0;
}
"""

JACOBI = """
void jacobi(int t, int n, double A[n][n], double B[n][n]) {
  for (int s = 0; s < t; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
}
"""

LU = """
void lu(int n, double A[n][n]) {
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      A[i][k] = A[i][k] / A[k][k];
      for (int j = k + 1; j < n; j++)
        A[i][j] -= A[i][k] * A[k][j];
    }
}
"""


def _scop(tmp, src, name):
    exp = experiments.load(str(_write(tmp, "k.c", src)))
    assert len(exp.scops) == 1
    s = exp.scops[0]
    assert s.name == f"{name}.scop0"
    return s


def test_reduction_dependences(tmp):
    s = _scop(tmp, REDUCTION, "sum")
    # The accumulator carries every dependence from one iteration to the next (p0 = n).
    chain = "[p0] -> { S0[i] -> S0[i + 1] : 0 <= i <= p0 - 2 }"
    assert _same_relation(s.dependences["RAW"], chain)
    assert _same_relation(s.dependences["WAW"], chain)
    assert _same_relation(s.dependences["WAR"], chain)


def test_gemm_dependences_only_along_k(tmp):
    s = _scop(tmp, GEMM, "gemm")
    chain = "[p0] -> { S0[i, j, k] -> S0[i, j, k + 1] : 0 <= i < p0 and 0 <= j < p0 and 0 <= k <= p0 - 2 }"
    assert _same_relation(s.dependences["RAW"], chain)
    # i and j carry nothing: both may be parallel, and i <-> j interchange is legal.
    s.interchange(1, 3).parallelize(1).parallelize(3)
    assert s.legal
    # k carries the reduction: parallel k is rejected.
    s.parallelize(5)
    with pytest.raises(IllegalSchedule, match="RAW"):
        s.check()


LINEARIZED = """
void mv(int n, int m, double *A, double *x, double *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i] += A[i * m + j] * x[j];
}
"""


def test_linearized_subscripts_are_delinearized(tmp):
    s = _scop(tmp, LINEARIZED, "mv")
    # A[i * m + j] with 0 <= j < m is the element (i, j) of rows of length m: only j carries the sum into y[i].
    chain = "[p0, p1] -> { S0[i, j] -> S0[i, j + 1] : 0 <= i < p0 and 0 <= j <= p1 - 2 }"
    assert _same_relation(s.dependences["RAW"], chain)
    assert s.interchange(1, 3).legal  # each y[i] still sums in j order


def test_linearized_subscript_leaving_its_row_is_not_modelled(tmp):
    src = LINEARIZED.replace("j < m;", "j <= m;")  # A[i * m + m] is the first element of the next row
    r = run_pgcc([_write(tmp, "k.c", src), "--emit=scop", "-S", "-o", tmp / "scop.json"])
    assert r.returncode == 0, r.stderr
    text = (tmp / "scop.json").read_text()
    assert '"kept"' in text and "may leave its row" in text


def test_seidel_time_reversal_is_illegal(tmp):
    s = _scop(tmp, SEIDEL, "seidel")
    raw = isl.UnionMap(s.dependences["RAW"])
    # Flow dependences within a sweep: from (i-1, j) and (i, j-1) of the same time step.
    assert not raw.intersect(isl.UnionMap("[p0, p1] -> { S0[s, i, j] -> S0[s, i + 1, j] }")).is_empty()
    assert not raw.intersect(isl.UnionMap("[p0, p1] -> { S0[s, i, j] -> S0[s, i, j + 1] }")).is_empty()
    s.skew(1, 1, -2)  # t -> -t: runs time backwards
    with pytest.raises(IllegalSchedule, match=r"violates the (RAW|WAR|WAW) dependence S0 -> S0"):
        s.check()


def test_jacobi_statements_are_ordered_by_time_and_skewing_keeps_legality(tmp):
    s = _scop(tmp, JACOBI, "jacobi")
    raw = isl.UnionMap(s.dependences["RAW"])
    # S1 reads what S0 wrote in the same time step; S0 reads what S1 wrote in the previous one.
    assert not raw.intersect(isl.UnionMap("[p0, p1] -> { S0[t, i, j] -> S1[t, i, j] }")).is_empty()
    assert not raw.intersect(isl.UnionMap("[p0, p1] -> { S1[t, i, j] -> S0[t + 1, i + 1, j] }")).is_empty()
    assert s.legal
    s.interchange(0, 2)  # statement order before time: S1 of every step after all S0 steps
    assert not s.legal


def _violated_by_definition(s) -> dict:
    """{kind: violated pairs} straight from legality's definition: dependences (a, b) with schedule(a) >=
    schedule(b), over the pairs of instances of every two statements."""
    not_before = s.schedule.lex_ge_union_map(s.schedule)
    out = {}
    for kind, d in s.deps.by_kind().items():
        if not d.intersect(not_before).is_empty():
            out[kind] = d.intersect(not_before)
    return out


@pytest.mark.parametrize("src, name, change", [(JACOBI, "jacobi", None), (JACOBI, "jacobi", (0, 2)),
                                               (LU, "lu", (1, 3)), (SEIDEL, "seidel", "reverse")],
                         ids=["jacobi", "jacobi-interchanged", "lu-interchanged", "seidel-reversed"])
def test_violations_match_the_definition(src, name, change, tmp):
    """legality.violations decides each dependence kind in the schedule space (a speed-up): the kinds it reports
    and their violated pairs are those of the definition, for legal and illegal schedules of several
    statements."""
    s = _scop(tmp, src, name)
    if change == "reverse":
        s.skew(1, 1, -2)
    elif change is not None:
        s.interchange(*change)
    got = legality.violations(s.model, s.deps, s.schedule)
    expected = _violated_by_definition(s)
    assert got.keys() == expected.keys()
    assert all(got[k].is_equal(expected[k]) for k in got)
    assert bool(got) == (change is not None)


def test_lu_next_pivot_depends_on_updates(tmp):
    s = _scop(tmp, LU, "lu")
    raw = isl.UnionMap(s.dependences["RAW"])
    # The update A[i][j] -= A[i][k] * A[k][j] is the statement with three loops writing A; the pivot scaling
    # has two (scalar copies of loaded values add statements of their own).
    on_a = [st for st in s.model.scop.statements if "?x?" in str(st.store.operands[1].type)]
    pivot = next(st.name for st in on_a if len(st.loops) == 2)
    update = next(st.name for st in on_a if len(st.loops) == 3)
    # Step k's update of A[k+1][k+1] is read by step k+1's pivot scaling.
    assert not raw.intersect(isl.UnionMap(f"[p0] -> {{ {update}[k, i, j] -> {pivot}[k + 1, i'] }}")).is_empty()
    assert s.legal
    # Moving the k loop inside i breaks the dependences from step k to step k + 1.
    s.interchange(1, 3)
    assert not s.legal


# ------------------------------------------------------------------------------------- scheduled programs

@pytest.mark.parametrize("src", KERNELS, ids=[k.stem for k in KERNELS])
def test_scheduled_program_prints_what_gcc_prints(src, tmp):
    ref = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, "-O3", "--polyhedral", "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "pg", threads=threads)
        assert got.returncode == 0
        assert (got.stdout, got.stderr) == (ref.stdout, ref.stderr)


@pytest.mark.parametrize("flags", [["--fusion=max"], ["--fusion=none"], ["--tile-sizes=4,8,16"],
                                   ["--no-tiling", "--no-parallel"]])
def test_scheduler_options_keep_output(flags, tmp):
    for name in ("gemm", "jacobi_2d", "lu", "fdtd_2d"):
        src = PROGRAMS / "polybench" / f"{name}.c"
        ref = run_exe(build_gcc(src, tmp / f"{name}.ref"))
        r = run_pgcc([src, "-O3", *flags, "-o", tmp / name])
        assert r.returncode == 0, r.stderr
        got = run_exe(tmp / name, threads=2)
        assert (got.stdout, got.stderr) == (ref.stdout, ref.stderr), (name, flags)


def test_gemm_is_tiled_and_parallel(tmp):
    r = run_pgcc([PROGRAMS / "polybench" / "gemm.c", "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("@kernel_gemm"):]
    kernel = kernel[: kernel.index("return")]
    assert "affine.parallel" in kernel
    assert "floordiv 32 + 1" in kernel  # loops over tiles of 32
    assert "to min #" in kernel  # point loops, the last tile partial


# -------------------------------------------------------------------------------- --emit=scop, --schedule

def test_emit_scop_is_json_with_isl_relations(tmp):
    r = run_pgcc([PROGRAMS / "polybench" / "gemm.c", "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scop = next(s for s in doc["scops"] if s["function"] == "kernel_gemm")
    assert [s["name"] for s in scop["statements"]] == ["S0", "S1"]
    assert "gemm.c:" in scop["statements"][1]["location"]
    for key in ("domain", "reads", "writes"):
        isl.UnionSet(scop["statements"][0]["domain"]) if key == "domain" else isl.UnionMap(scop["statements"][0][key])
    for kind in ("RAW", "WAR", "WAW"):
        isl.UnionMap(scop["dependences"][kind])
    isl.UnionMap(scop["schedule"])


def _gemm_schedule_file(tmp, schedule, parallel=()):
    path = tmp / "sched.json"
    path.write_text(json.dumps({"scops": [{"name": "kernel_gemm.scop0", "schedule": schedule,
                                           "parallel": list(parallel)}]}))
    return path


def test_user_schedule_interchange_runs_and_matches(tmp):
    src = PROGRAMS / "polybench" / "gemm.c"
    ref = run_exe(build_gcc(src, tmp / "ref"))
    # S0: C[i][j] *= beta; S1: C[i][j] += ... over (i, k, j). Put j outside k for S1, i parallel.
    sched = "{ S0[i, j] -> [i, 0, j, 0]; S1[i, k, j] -> [i, 1, j, k] }"
    r = run_pgcc([src, "-O3", f"--schedule={_gemm_schedule_file(tmp, sched, [0])}", "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "pg", threads=2)
    assert (got.stdout, got.stderr) == (ref.stdout, ref.stderr)


def test_illegal_user_schedule_is_rejected_with_the_dependence(tmp):
    src = PROGRAMS / "polybench" / "gemm.c"
    # The accumulation S1 before the scaling S0 of the same element violates their dependence.
    sched = "{ S0[i, j] -> [i, 1, j, 0]; S1[i, k, j] -> [i, 0, j, k] }"
    r = run_pgcc([src, "-O3", f"--schedule={_gemm_schedule_file(tmp, sched)}", "-o", tmp / "pg"])
    assert r.returncode == 1
    assert "violates the" in r.stderr and "S0 -> S1" in r.stderr and "gemm.c:" in r.stderr
    assert "Traceback" not in r.stderr


def test_parallel_dimension_carrying_a_dependence_is_rejected(tmp):
    src = PROGRAMS / "polybench" / "gemm.c"
    sched = "{ S0[i, j] -> [i, 0, j, 0]; S1[i, k, j] -> [i, 1, k, j] }"
    r = run_pgcc([src, "-O3", f"--schedule={_gemm_schedule_file(tmp, sched, [2])}", "-o", tmp / "pg"])
    assert r.returncode == 1
    assert "cannot be parallel" in r.stderr


def test_experiments_api_tile_interchange_compile(tmp):
    src = PROGRAMS / "polybench" / "gemm.c"
    ref = run_exe(build_gcc(src, tmp / "ref"))
    exp = experiments.load(str(src))
    s = exp.scop("kernel_gemm.scop0")
    assert s.statements == ["S0", "S1"]
    # Original 2d+1 schedule: [0, i, pos, j|k, pos, j, 0]; tile i by 8 and run the tiles in parallel.
    s.tile(1, 8).parallelize(1)
    assert s.legal
    exe = exp.compile(str(tmp / "exp"))
    got = run_exe(exe, threads=2)
    assert (got.stdout, got.stderr) == (ref.stdout, ref.stderr)
    assert experiments.Experiment.time(exe, threads=1, reps=1) > 0


BICG_LIKE = """
void bicg(int n, int m, double A[n][m], double s[m], double q[n], double p[m], double r[n]) {
  for (int i = 0; i < n; i++) {
    q[i] = 0.0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}
"""


def test_fission_of_a_streaming_nest_is_predicted_to_lose(tmp):
    """isl separates the two statements (each then has a parallel loop), which streams A twice: not applied. The
    original nest has no parallel loop either; it runs as a wavefront of tiles, whose parallel loop over the tiles
    of a wavefront has bounds that depend on the wavefront loop around it."""
    r = run_pgcc([_write(tmp, "k.c", BICG_LIKE), "--emit=scop", "-S", "-o", tmp / "scop.json"])
    assert r.returncode == 0, r.stderr
    scop = json.loads((tmp / "scop.json").read_text())["scops"][0]
    assert "no predicted gain" in scop["reason"] and "loops that each stream it" in scop["reason"]
    assert "wavefront of parallel tiles" in scop["reason"]
    r = run_pgcc([tmp / "k.c", "-O3", "-S", "--emit=polyhedral", "-o", tmp / "out.mlir"])
    assert r.returncode == 0, r.stderr
    outer = re.search(r"affine\.for (%arg\d+) .*\n\s*affine\.parallel \(%arg\d+\) = \((.*)\) to \((.*)\) \{",
                      (tmp / "out.mlir").read_text())
    assert outer and outer.group(1) in outer.group(2) + outer.group(3)


@pytest.mark.parametrize("name, sizes, jammed", [
    ("bicg", ["-DM=1100", "-DN=203"], "-> (f64, f64, f64, f64)"),
    ("trisolv", ["-DN=1100"], None),
    ("atax", ["-DM=103", "-DN=517"], "-> (f64, f64, f64, f64)"),
    ("gemm", ["-DNI=70", "-DNJ=75", "-DNK=90"], "step 4"),
    ("correlation", ["-DN=120", "-DM=100"], "step 4"),
    ("symm", ["-DM=70", "-DN=101"], "step 4"),
    ("syr2k", ["-DN=110", "-DM=97"], "step 4")])
def test_wavefront_and_unroll_jam_keep_output(name, sizes, jammed, tmp):
    """Sizes with several tiles of 32 x 512 in each direction (bicg's wavefront; trisolv's triangle keeps its
    loops) and trip counts that are not a multiple of the unroll-and-jam factor or the tile size (cleanup loops,
    partial tiles): output
    equals gcc's at 1 and 2 threads. bicg's and atax's row sums are computed four at a time (a loop carrying four
    f64 values); gemm's and correlation's k loops are unrolled and jammed into the loops that update C[i][j] and
    corr[i][j] (correlation's triangle once had a copy read the first copy's load instead of its store); symm's
    and syr2k's j loops around their k loops, each copy with its own acc (symm's last row has an empty second k
    loop: a copy once read another copy's sum)."""
    src = PROGRAMS / "polybench" / f"{name}.c"
    ref = run_exe(build_gcc(src, tmp / "ref", sizes))
    r = run_pgcc([src, "-O3", *sizes, "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "pg", threads=threads)
        assert (got.stdout, got.stderr) == (ref.stdout, ref.stderr), threads
    if jammed:
        r = run_pgcc([src, "-O3", *sizes, "--emit=polyhedral", "-o", "-"])
        assert jammed in r.stdout[r.stdout.index(f"@kernel_{name}"):]


def test_unroll_and_jam_legality_is_checked_with_isl():
    """atax's row loop may be unrolled and jammed (rows only meet in y[j], updated in row order either way);
    trisolv's may not: row i + 1 reads the x[i] that row i finishes after its inner loop."""
    for name, legal in (("atax", True), ("trisolv", False)):
        s = experiments.load(str(PROGRAMS / "polybench" / f"{name}.c")).scop(f"kernel_{name}.scop0")
        jammed, marks = jam_marks.mark_unroll_jam(s.model, s.deps, original_schedule.original_tree(s.model))
        assert (marks > 0) == legal, name
        assert ("unroll-jam" in str(jammed)) == legal


TRISOLV_LIKE = """
void trisolv(int n, double L[n][n], double x[n], double b[n]) {
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
}
"""


def test_schedule_losing_the_stride_one_walk_is_predicted_to_lose(tmp):
    # isl turns the row dot products into column updates: L would be walked down its columns.
    r = run_pgcc([_write(tmp, "k.c", TRISOLV_LIKE), "--emit=scop", "-S", "-o", tmp / "scop.json"])
    assert r.returncode == 0, r.stderr
    scop = json.loads((tmp / "scop.json").read_text())["scops"][0]
    assert "across rows" in scop["reason"]


def test_reduction_element_of_innermost_loop_is_carried_in_a_register(tmp):
    """gesummv: the point loops put j innermost (A[i][j] is walked along its rows, which outweighs tmp[i]
    moving with i), and tmp[i], y[i] become iter_args of the j loop: loaded once before it and stored once
    after it, both under the loop's non-emptiness test."""
    r = run_pgcc([PROGRAMS / "polybench" / "gesummv.c", "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("@kernel_gesummv"):]
    kernel = kernel[:kernel.index("return")]
    carried = re.search(r"affine\.for [^\n]* iter_args\([^\n]*\) -> \(f64, f64\) \{", kernel)
    assert carried, kernel
    body = kernel[carried.end():]
    body = body[:body.index("affine.yield")]
    assert "affine.store" not in body and body.count("affine.load") == 3  # A[i][j], B[i][j] and x[j] (reused)


# ------------------------------------------------------------------- fallback: original loops, parallel marked

def test_rejected_schedule_falls_back_to_the_original_loops_run_in_parallel(tmp):
    """adi: isl's schedule is predicted to lose (stride-1 walk lost); the original loops run instead, each sweep's
    column (row) loop in parallel inside the sequential time loop, with the scalar copy of p[j][i-1] private to
    each iteration (its own memref.alloca in the parallel body)."""
    src = PROGRAMS / "polybench" / "adi.c"
    r = run_pgcc([src, "-O3", "--emit=scop", "-S", "-o", tmp / "scop.json"])
    assert r.returncode == 0, r.stderr
    scop = next(s for s in json.loads((tmp / "scop.json").read_text())["scops"] if s["function"] == "kernel_adi")
    assert "no predicted gain" in scop["reason"] and "original loops" in scop["reason"]
    assert scop["schedule_tree"].count('mark: "parallel"') == 2 and 'mark: "private ' in scop["schedule_tree"]
    r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("@kernel_adi"):]
    kernel = kernel[: kernel.index("return")]
    time_loop = kernel.index("affine.for")
    assert kernel.count("affine.parallel") == 2 and kernel.index("affine.parallel") > time_loop
    for sweep in kernel.split("affine.parallel")[1:]:
        assert sweep.lstrip().split("\n")[1].strip().startswith("%alloca = memref.alloca() : memref<f64>")
    ref = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, "-O3", "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "pg", threads=threads)
        assert (got.returncode, got.stdout, got.stderr) == (0, ref.stdout, ref.stderr)


RECURRENCE = """
void prefix(int t, int n, int m, double A[n][m], double b[n]) {
  double acc = 0.0;
  for (int s = 0; s < t; s++)
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++)
        acc = acc + A[i][j];
      b[i] = acc;
    }
}
"""


@pytest.mark.parametrize("src, function", [(PROGRAMS / "polybench" / "durbin.c", "kernel_durbin"),
                                           (RECURRENCE, "prefix")], ids=["durbin", "recurrence"])
def test_original_schedule_without_parallel_loop_is_no_fallback(src, function, tmp):
    """durbin's inner loops are parallel but hold one loop level inside the sequential k loop (a fork/join per
    k for O(k) work); the recurrence's scalar acc (a rank-0 array used only in the SCoP) carries its value from
    one i to the next, so it cannot be private to an iteration of i. Neither has a parallel loop to fall back
    to, and the original schedule tree is legal."""
    path = src if not isinstance(src, str) else _write(tmp, "k.c", src)
    s = experiments.load(str(path)).scop(f"{function}.scop0")
    assert original_schedule.parallel_schedule(s.model, s.deps) is None
    tree = original_schedule.original_tree(s.model)
    assert legality.violations(s.model, s.deps, tree) == {}


def test_triangular_parallel_loops_get_a_dynamic_schedule():
    """syrk's parallel loop over rows holds loops bounded by the row (a triangle): it gets OpenMP's dynamic
    schedule; gemm's rectangular nest keeps the default static one."""
    def schedules(name):
        # sizes above one tile: with the files' small sizes every tile loop has one iteration and no loop is emitted
        r = run_pgcc([PROGRAMS / "polybench" / f"{name}.c", "-O3", "-DN=200", "-DM=150", "-DNI=100", "-DNJ=110",
                      "-DNK=120", "--emit=llvm-dialect", "-o", "-"])
        assert r.returncode == 0, r.stderr
        return [line.strip().split("{")[0] for line in r.stdout.splitlines() if "omp.wsloop" in line]

    assert any("schedule(dynamic)" in w for w in schedules("syrk"))
    gemm = schedules("gemm")
    assert gemm and not any("schedule" in w for w in gemm)


def test_private_scalar_is_expanded_and_the_loop_runs_in_parallel(tmp):
    """syr2k's ``acc`` (reset for every (i, j), summed over k, stored to C[i][j]) would link all iterations by
    its WAR/WAW dependences; expanded in the model, the i loop is parallel and gets a private copy of acc (with
    --no-unroll-jam at the top of its body; unrolled and jammed, each copy of the j loop's body has its own);
    the output equals gcc's at 1 and 2 threads."""
    src = PROGRAMS / "polybench" / "syr2k.c"
    for flags, line in (([], 2), (["--no-unroll-jam"], 1)):
        r = run_pgcc([src, "-O3", *flags, "--emit=polyhedral", "-o", "-"])
        assert r.returncode == 0, r.stderr
        kernel = r.stdout[r.stdout.index("func.func private @kernel_syr2k"):]
        kernel = kernel[:kernel.index("func.func", 10)]
        par = kernel.index("affine.parallel")
        assert "memref.alloca() : memref<f64>" in kernel[par:].split("\n")[line], kernel[par:par + 300]
    # the scheduled code (the kernel's arrays may overlap: it runs under a run-time alias check) has that one
    # copy; acc's own storage at the function's entry serves the original loops of the check's else-branch
    scheduled = kernel[kernel.index("scf.if"):kernel.index("} else {")]
    assert scheduled.count("memref.alloca()") == 1, scheduled
    want = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, "-O3", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.stdout, got.stderr) == (want.stdout, want.stderr)


def test_long_one_dimensional_parallel_loops_run_in_parallel_when_long(tmp):
    """jacobi-1d's sweeps are one-dimensional parallel loops inside the time loop: each runs in parallel only
    when its trip count reaches LARGE_TRIP (checked at run time), sequentially otherwise; both versions compute
    what gcc computes."""
    from polygeist_py.affine.scheduler import LARGE_TRIP

    src = PROGRAMS / "polybench" / "jacobi_1d.c"
    r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("func.func private @kernel_jacobi_1d"):]
    kernel = kernel[:kernel.index("func.func", 10)]
    assert "scf.if" in kernel and "affine.parallel" in kernel and "} else {" in kernel
    assert f"arith.constant {LARGE_TRIP} : index" in kernel
    for size in ([f"-DN={LARGE_TRIP + 1000}", "-DTSTEPS=3"], []):  # above the threshold, and the small default
        want = run_exe(build_gcc(src, tmp / "ref", size))
        r = run_pgcc([src, "-O3", *size, "-o", tmp / "app"])
        assert r.returncode == 0, r.stderr
        for threads in (1, 2):
            got = run_exe(tmp / "app", threads=threads)
            assert (got.stdout, got.stderr) == (want.stdout, want.stderr)


def test_stride_one_member_sinks_below_a_one_member_band():
    """trmm: isl's band puts the k loop below the tiled (i, j) points, where it walks X[k][j] down a column;
    the j point loop moves below k (legal here), so the innermost loop walks rows and the schedule is kept."""
    r = run_pgcc([PROGRAMS / "polybench" / "trmm.c", "-O3", "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    scop = next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "kernel_trmm")
    assert not scop.get("reason"), scop.get("reason")
    s0 = scop["schedule_tree"].split('filter: "[p0, p1] -> { S1')[0]
    bands = re.findall(r'schedule: "\[p0, p1\] -> \[\{ S0\[i0, i1, i2\] -> \[\(([^"]*)\)\] \}\]"', s0)
    assert bands[-2:] == ["i1", "(i2) mod 512"], bands  # (a two-member band: 32 x 512 tiles)


def test_scalar_only_read_in_a_parallel_loop_needs_no_private_copy(tmp):
    """durbin's alpha, expanded per k, is written outside the vector update loop and only read inside it (a
    parallel loop): it needs no private copy, so the schedule is applied (regenerated loops carry the SCoP's
    location, line 41; the kept code would keep the inner loops' own lines 44, 47 and 49), and the program
    prints what gcc's does."""
    src = PROGRAMS / "polybench" / "durbin.c"
    r = run_pgcc([src, "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("func.func private @kernel_durbin"):]
    kernel = kernel[:kernel.index("func.func", 10)]
    loops = [line for line in kernel.splitlines() if "affine.for" in line]
    assert loops and all('durbin.c":41:3)' in line for line in loops), loops
    want = run_exe(build_gcc(src, tmp / "ref"))
    assert run_pgcc([src, "-O3", "-o", tmp / "app"]).returncode == 0
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.stdout, got.stderr) == (want.stdout, want.stderr)


def test_lu_is_tiled_in_all_three_loops(tmp):
    """isl's default schedule keeps lu's k loop sequential outside parallel (i, j) loops; the schedule computed
    without outer coincidence tiles k, i and j together, unskewed, and runs the tiles as a wavefront (a blocked
    LU). Output equals gcc's with several tiles in each direction, at 1 and 2 threads."""
    src = PROGRAMS / "polybench" / "lu.c"
    r = run_pgcc([src, "-O3", "-DN=100", "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    scop = next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "kernel_lu")
    tree = scop["schedule_tree"]
    first_band = tree[tree.index("schedule:"):tree.index("permutable")]
    assert first_band.count("floor((i0)/32)") == 2 and "floor((i1)/32)" in first_band  # the wavefront K + I
    want = run_exe(build_gcc(src, tmp / "ref", ["-DN=100"]))
    assert run_pgcc([src, "-O3", "-DN=100", "-o", tmp / "app"]).returncode == 0
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.stdout, got.stderr) == (want.stdout, want.stderr)


DOITGEN_IN_MAIN = """
#include <stdio.h>
double A[10][12][40], W[40][40], acc[40];
int main(void) {
  for (int r = 0; r < 10; r++) for (int q = 0; q < 12; q++) for (int p = 0; p < 40; p++)
    A[r][q][p] = (double)((r * q + p) % 40) / 40;
  for (int s = 0; s < 40; s++) for (int p = 0; p < 40; p++) W[s][p] = (double)(s * p % 40) / 40;
  for (int r = 0; r < 10; r++)
    for (int q = 0; q < 12; q++) {
      for (int p = 0; p < 40; p++) {
        acc[p] = 0.0;
        for (int s = 0; s < 40; s++) acc[p] += A[r][q][s] * W[s][p];
      }
      for (int p = 0; p < 40; p++) A[r][q][p] = acc[p];
    }
  double sum = 0.0;
  for (int r = 0; r < 10; r++) for (int q = 0; q < 12; q++) for (int p = 0; p < 40; p++) sum += A[r][q][p];
  printf("%.10e\\n", sum);
}
"""


def test_schedule_enumerating_loops_through_constant_bounds_is_recomputed(tmp):
    """With literal sizes, isl's scheduler fuses doitgen's r, q and s loops into one dimension (468 r + 39 q + s,
    from the bounds): one sequential loop around tiny parallel ones. The schedule is recomputed carrying the other
    dependences first, which keeps the loops apart (no coefficient above 8; the profitability check would reject
    one); the output equals gcc's at 1 and 2 threads."""
    from polygeist_py.affine.scheduler import MAX_COEFFICIENT, largest_coefficient

    src = _write(tmp, "k.c", DOITGEN_IN_MAIN)
    r = run_pgcc([src, "--emit=scop", "-O3", "-o", "-"])
    assert r.returncode == 0, r.stderr
    scops = json.loads(r.stdout)["scops"]
    assert scops
    for scop in scops:
        assert not scop.get("reason"), scop.get("reason")
        assert largest_coefficient(isl.Schedule(scop["schedule_tree"])) <= MAX_COEFFICIENT
    want = run_exe(build_gcc(src, tmp / "ref"))
    assert run_pgcc([src, "-O3", "-o", tmp / "app"]).returncode == 0
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert got.stdout == want.stdout


def test_parallel_loop_inside_two_sequential_loops_runs_in_parallel_only_when_long(tmp):
    """doitgen's tiles of p are parallel inside its sequential r and q loops: forked once per (r, q) they cost
    more than they gain, so they get two versions, parallel only for a long loop (LARGE_TRIP). trisolv's triangle
    is not run as a wavefront of tiles (short rows of tiles: twice as slow as its loops at n = 2000). Outputs
    equal gcc's at 1 and 2 threads."""
    from polygeist_py.affine.codegen import VERSIONS

    src = PROGRAMS / "polybench" / "doitgen.c"
    r = run_pgcc([src, "-O3", "-DNR=10", "-DNQ=12", "-DNP=70", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    kernel = r.stdout[r.stdout.index("func.func private @kernel_doitgen"):]
    kernel = kernel[:kernel.index("func.func", 10)]
    assert VERSIONS in kernel
    r = run_pgcc([PROGRAMS / "polybench" / "trisolv.c", "-O3", "-DN=2000", "--emit=scop", "-o", "-"])
    scop = next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "kernel_trisolv")
    assert "wavefront" not in scop.get("reason", "")
    want = run_exe(build_gcc(src, tmp / "ref", ["-DNR=10", "-DNQ=12", "-DNP=70"]))
    assert run_pgcc([src, "-O3", "-DNR=10", "-DNQ=12", "-DNP=70", "-o", tmp / "app"]).returncode == 0
    for threads in (1, 2):
        got = run_exe(tmp / "app", threads=threads)
        assert (got.stdout, got.stderr) == (want.stdout, want.stderr)
