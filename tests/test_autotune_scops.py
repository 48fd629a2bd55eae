"""Issue 21, per-SCoP tuning: a --schedule file's entries carry scheduling options for their SCoP alone (checked
in --emit=scop and against gcc's output), malformed options are rejected naming the SCoP and the key, the tuning
database gives each SCoP of a file its own stored variant, and the autotuner tunes and stores each SCoP's own
best, never one that fails the legality check."""

import json

import pytest

from conftest import build_gcc, run_exe, run_pgcc

from polygeist_py.affine import autotune as at
from polygeist_py.affine import sweep as sw
from polygeist_py.affine import tuning_db as tdb
from polygeist_py.affine import user_schedule as us

# Two matrix products in two functions (two SCoPs that want tiles of their own) and main's fill and checksum
# loops (a third SCoP).
TWO_PRODUCTS = r"""
#include <stdio.h>

#define N 72

static double a[N][N], b[N][N], c[N][N], s[N][N];

/* c += a * b */
static void matmul(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        c[i][j] += a[i][k] * b[k][j];
}

/* s += c * c^T: the Gram matrix of c's rows */
static void gram(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        s[i][j] += c[i][k] * c[j][k];
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
      b[i][j] = (double)((i * 5 + j) % 13) / 13.0 - 0.5;
      c[i][j] = 0.0;
      s[i][j] = 0.0;
    }
  matmul();
  gram();
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += s[i][j] * (i + 1) - c[i][j] / (j + 1);
  printf("%.10f %.10f %.10f\n", sum, c[N / 2][N / 3], s[N / 3][N / 2]);
  return 0;
}
"""
FILL_FUSED = "{ S0[i0, i1] -> [i0, i1, 0]; S1[i0, i1] -> [i0, i1, 1]; S2[i0, i1] -> [i0, i1, 2]; " \
             "S3[i0, i1] -> [i0, i1, 3] }"
# reverses matmul's k loop, which carries the accumulation into c[i][j]
ILLEGAL_MATMUL = {"matmul.scop0": {"schedule": "{ S0[i0, i1, i2] -> [i0, i1, -i2] }", "parallel": []}}


@pytest.fixture
def program(tmp):
    src = tmp / "two_products.c"
    src.write_text(TWO_PRODUCTS)
    return src


def _scops(src, *flags) -> dict:
    """{scop name: --emit=scop entry} of `src` compiled at -O3 with `flags`."""
    r = run_pgcc([src, "-O3", *flags, "--emit=scop", "-S", "-o", "-"])
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return {s["name"]: s for s in json.loads(r.stdout)["scops"]}


def _tile_sizes(scop: dict) -> list:
    """The tile sizes of a SCoP's computed schedule: the moduli of its schedule tree's point loops
    ("((i0) mod 16)")."""
    import re
    return [int(x) for x in re.findall(r"\(\(i\d+\) mod (\d+)\)", scop["schedule_tree"])]


def _same_as_gcc(src, tmp, *flags):
    ref = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, "-O3", *flags, "-o", tmp / "pg"])
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    got = run_exe(tmp / "pg", threads=2)
    assert (got.returncode, got.stdout) == (ref.returncode, ref.stdout)
    return r


def test_schedule_file_gives_each_scop_its_own_options(program, tmp):
    sched = tmp / "options.json"
    sched.write_text(json.dumps({"scops": [
        {"name": "matmul.scop0", "tile_sizes": [16, 16, 16], "parallel": False},
        {"name": "gram.scop0", "tile_sizes": [8, 8, 8], "fusion": "none", "unroll_jam": False},
        # main's fill loops: a user schedule (the four statements fused, rows in parallel) with unroll-and-jam
        {"name": "main.scop0", "schedule": FILL_FUSED, "parallel": [0], "unroll_jam": True}]}))
    scops = _scops(program, f"--schedule={sched}")
    mm, gr, main = scops["matmul.scop0"], scops["gram.scop0"], scops["main.scop0"]
    assert mm["compiled_with"] == {"tile_sizes": [16, 16, 16], "fusion": "smart", "parallel": False,
                                   "unroll_jam": True, "from": "schedule file"}
    assert gr["compiled_with"] == {"tile_sizes": [8, 8, 8], "fusion": "none", "parallel": True,
                                   "unroll_jam": False, "from": "schedule file"}
    assert main["compiled_with"] == {"schedule": "user", "parallel": [0], "unroll_jam": True, "from": "schedule file"}
    assert '"parallel"' in main["schedule_tree"]
    # the schedules themselves: 16 and 8 wide tiles, no parallel loop in matmul only
    assert sorted(set(_tile_sizes(mm))) == [16] and sorted(set(_tile_sizes(gr))) == [8]
    assert '"parallel"' not in mm["schedule_tree"] and '"parallel"' in gr["schedule_tree"]
    _same_as_gcc(program, tmp, f"--schedule={sched}")


@pytest.mark.parametrize("entry, key, says", [
    ({"tile_sizes": [16, 0]}, "tile_sizes", "list of positive integers"),
    ({"tile_sizes": "16,16"}, "tile_sizes", "list of positive integers"),
    ({"fusion": "greedy"}, "fusion", "must be one of max, smart, none"),
    ({"parallel": "yes"}, "parallel", "must be true or false"),
    ({"parallel": [0]}, "parallel", "needs a user schedule"),
    ({"unroll_jam": 1}, "unroll_jam", "must be true or false"),
    ({"tile_size": [16]}, "tile_size", 'did you mean "tile_sizes"'),
    ({"schedule": "{ S0[i0, i1, i2] -> [i0, i1, i2] }", "tile_sizes": [8]}, "tile_sizes", "user schedule fixes"),
    ({"schedule": "{ S0[i0, i1, i2] -> [i0, i1, i2] }", "fusion": "max"}, "fusion", "user schedule fixes"),
])
def test_bad_per_scop_options_are_rejected_naming_scop_and_key(tmp, entry, key, says):
    path = tmp / "bad.json"
    path.write_text(json.dumps({"scops": [{"name": "gram.scop0"}, {"name": "matmul.scop0", **entry}]}, indent=1))
    with pytest.raises(us.ScheduleFileError) as e:
        us.read_schedule_file(str(path))
    assert f'SCoP matmul.scop0: "{key}"' in e.value.message and says in e.value.message
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if f'"{key}"' in text)
    assert e.value.render().startswith(f"{path}:{line}:")  # file:line:col of the key


def test_bad_options_from_the_command_line(program, tmp):
    path = tmp / "bad.json"
    path.write_text('{"scops": [\n {"name": "matmul.scop0", "fusion": "greedy"}\n]}\n')
    r = run_pgcc([program, "-O3", f"--schedule={path}", "-o", tmp / "a"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{path}:2:") and 'error: SCoP matmul.scop0: "fusion" must be one of' in r.stderr
    assert not (tmp / "a").exists()


def test_database_applies_each_scops_own_entry(program, tmp):
    db = tdb.TuningDB(str(tmp / "db.json"))
    texts = {name: text for name, text, _ in tdb.scop_texts(str(program))}
    assert set(texts) == {"matmul.scop0", "gram.scop0", "main.scop0"}
    stored = {"matmul.scop0": sw.Variant(tile_sizes=(16, 16, 16), parallel=False),
              "gram.scop0": sw.Variant(tile_sizes=(8, 8, 8), fusion="none")}
    for name, v in stored.items():  # as tuned in another file, where the SCoPs had other names
        db.put(texts[name], {"scop": f"elsewhere_{name}", "kernel": "other.c", "variant": v.document(),
                             "variant_key": v.key, "variant_flags": v.flags(), "schedules": None, "speedup": 1.25})
    r = run_pgcc([program, "-O3", "-v", f"--tuning-db={db.path}", "--emit=scop", "-S", "-o", tmp / "scop.json"])
    assert r.returncode == 0, r.stderr
    assert f"{program}: matmul.scop0: --tile-sizes=16,16,16 --no-parallel" in r.stderr
    assert f"{program}: gram.scop0: --tile-sizes=8,8,8 --fusion=none" in r.stderr
    scops = {s["name"]: s for s in json.loads((tmp / "scop.json").read_text())["scops"]}
    mm, gr = scops["matmul.scop0"]["compiled_with"], scops["gram.scop0"]["compiled_with"]
    assert (mm["tile_sizes"], mm["parallel"], mm["fusion"]) == ([16, 16, 16], False, "smart")
    assert (gr["tile_sizes"], gr["parallel"], gr["fusion"]) == ([8, 8, 8], True, "none")
    assert mm["from"].startswith(f"tuning database {db.path}") and gr["from"].startswith("tuning database")
    assert scops["main.scop0"]["compiled_with"]["from"] == "command line"
    assert sorted(set(_tile_sizes(scops["matmul.scop0"]))) == [16]
    assert sorted(set(_tile_sizes(scops["gram.scop0"]))) == [8]
    # (the same options as test_schedule_file_gives_each_scop_its_own_options, whose program prints what gcc's does)


def test_autotuner_tunes_and_stores_each_scop(program, tmp):
    # matmul's candidates: the default, an illegal user schedule, 16-wide tiles; gram's: the default, 16-wide
    # tiles (the illegal schedule is matmul's alone). Budget 5: 3 timed runs for matmul (each candidate once),
    # 2 for gram; main (the lightest SCoP) is not tuned: a search needs 2 runs.
    assert at.split_budget(5, 3) == [3, 2]
    space = [sw.Variant(), sw.Variant(schedules=ILLEGAL_MATMUL), sw.Variant(tile_sizes=(16, 16, 16))]
    res = at.autotune(str(program), budget=5, space=space, db=str(tmp / "db.json"), serial=True, progress=False,
                      config=sw.SweepConfig(run_timeout=30))
    assert [s for s, _ in res.stages] == ["matmul.scop0", "gram.scop0"]  # heaviest first
    assert res.runs <= 5 and set(res.scops) == {"matmul.scop0", "gram.scop0"}
    mm_rows = {r["variant"]: r for r in res.stages[0][1].rungs[0].rows}
    illegal = sw.Variant.per_scop({"matmul.scop0": space[1]}).key
    assert mm_rows[illegal]["status"] == sw.ILLEGAL and mm_rows[illegal]["compile_s"] == 0.0
    assert res.scops["matmul.scop0"] != space[1]
    # gram's search starts from matmul's choice: every program it timed has it
    mm_entry = res.scops["matmul.scop0"].scop_entry("matmul.scop0")
    for row in res.stages[1][1].rungs[0].rows:
        assert row["status"] == sw.OK
        assert (f"matmul.scop0[{sw._entry_key(mm_entry)}]" in row["variant"]) == bool(mm_entry)
    assert res.best == sw.Variant.per_scop(res.scops)
    entries = {e["scop"]: e for e in tdb.TuningDB(str(tmp / "db.json")).entries().values()}
    assert set(entries) == {"matmul.scop0", "gram.scop0"}
    for name, e in entries.items():
        assert sw.Variant.from_document(e["variant"]) == res.scops[name]
        assert e["variant_key"] == res.scops[name].key and e["program_variant"] == res.best.key
