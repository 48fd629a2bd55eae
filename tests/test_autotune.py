"""Issue 21: the autotuner (affine/autotune.py) and its tuning database (affine/tuning_db.py): a stored variant
changes a later compile, entries of another pgcc version or machine are not used, an illegal schedule is never
selected, and `pgcc --autotune` stores what a second compile then uses."""

import json

import pytest

from conftest import PROGRAMS, run_exe, run_pgcc

from polygeist_py.affine import autotune as at
from polygeist_py.affine import sweep as sw
from polygeist_py.affine import tuning_db as tdb

GEMM = PROGRAMS / "polybench" / "gemm.c"
ILLEGAL = {"kernel_gemm.scop0": {"schedule": "{ S0[i, j] -> [i, 1, j, 0]; S1[i, k, j] -> [i, 0, j, k] }",
                                 "parallel": []}}


def _compiled_with(db, *flags) -> dict:
    """{scop name: (the options it was compiled with, whether its schedule has a parallel loop)} of gemm.c."""
    r = run_pgcc([GEMM, "-O3", f"--tuning-db={db}", *flags, "--emit=scop", "-S", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return {s["name"]: (s["compiled_with"], '"parallel"' in s["schedule_tree"]) for s in json.loads(r.stdout)["scops"]}


def test_tuning_db_round_trip_changes_a_later_compile(tmp):
    db = tdb.TuningDB(str(tmp / "db.json"))
    texts = tdb.scop_texts(str(GEMM))
    assert [n for n, _, _ in texts] == ["fill_inputs.scop0", "kernel_gemm.scop0"]
    heaviest = max(texts, key=lambda t: t[2])
    assert heaviest[0] == "kernel_gemm.scop0"
    # an entry of another pgcc version is never used
    entries = {tdb.key(heaviest[1], version="0.0.0"): {"variant_flags": ["--no-parallel"], "scop": "x",
                                                        "variant_key": "--no-parallel", "machine": tdb.machine(),
                                                        "pgcc_version": "0.0.0"}}
    (tmp / "db.json").write_text(json.dumps({"version": tdb.FORMAT, "entries": entries}))
    assert db.get(heaviest[1]) is None
    (opts, par), = [v for k, v in _compiled_with(db.path).items() if k == "kernel_gemm.scop0"]
    assert opts["from"] == "command line" and opts["parallel"] and par
    # an entry written before entries held a "variant" document: its flags are the variant
    db.put(heaviest[1], {"scop": heaviest[0], "variant_flags": ["--no-parallel"], "variant_key": "--no-parallel",
                         "schedules": None, "speedup": 1.5})
    assert db.get(heaviest[1])["variant_flags"] == ["--no-parallel"]
    got = _compiled_with(db.path)
    assert got["kernel_gemm.scop0"][0]["parallel"] is False and not got["kernel_gemm.scop0"][1]  # the stored variant
    assert got["kernel_gemm.scop0"][0]["from"].startswith(f"tuning database {db.path}: --no-parallel")
    assert got["fill_inputs.scop0"][0]["from"] == "command line"    # no entry: the command line's flags
    off = _compiled_with(db.path, "--no-tuning-db")["kernel_gemm.scop0"]  # off: pgcc's default schedule
    assert off[0]["from"] == "command line" and off[1]
    mine = _compiled_with(db.path, "--tile-sizes=16,16,16")["kernel_gemm.scop0"]  # the command line's choice wins
    assert mine[0]["from"] == "command line" and mine[0]["tile_sizes"] == [16, 16, 16] and mine[1]


def test_illegal_schedule_is_never_selected(tmp):
    space = [sw.Variant(schedules=ILLEGAL), sw.Variant(parallel=False)]
    res = at.successive_halving(str(GEMM), space, budget=3, serial=True, progress=False,
                                config=sw.SweepConfig(run_timeout=30))
    rows = {r["variant"]: r for r in res.rungs[0].rows}
    illegal = sw.Variant(schedules=ILLEGAL).key
    assert rows[illegal]["status"] == sw.ILLEGAL and rows[illegal]["compile_s"] == 0.0
    assert res.best is not None and res.best.key != illegal
    assert rows[res.best.key]["status"] == sw.OK
    assert res.default_median_s is not None and res.best_median_s <= res.default_median_s
    assert at.store(res, str(tmp / "db.json"))
    stored = tdb.TuningDB(str(tmp / "db.json")).entries().values()
    assert {e["variant_key"] for e in stored} == {res.best.key}


def test_plan_fits_the_budget():
    for budget in (3, 8, 24, 64):
        rungs = at.plan(budget)
        assert sum(n * r for n, r in rungs) <= budget
        assert all(b[0] <= a[0] // 2 and b[1] == 2 * a[1] for a, b in zip(rungs, rungs[1:]))
    assert at.plan(24) == [(8, 1), (4, 2), (2, 4)]
    assert at.default_space()[0] == sw.Variant()


def test_pgcc_autotune_stores_and_the_second_compile_uses_it(tmp):
    pytest.importorskip("distributed")
    src = tmp / "k.c"
    src.write_text((PROGRAMS.parent / "test_sweep.py").read_text().split('r"""')[1].split('"""')[0])
    db = tmp / "db.json"
    r = run_pgcc(["-O3", "--autotune=3", f"--tuning-db={db}", src, "-o", tmp / "a"],
                 env=_env(OMP_NUM_THREADS="1"))
    assert r.returncode == 0, r.stderr
    assert "autotuned" in r.stderr and "Traceback" not in r.stderr
    entries = list(tdb.TuningDB(str(db)).entries().values())
    assert [e["scop"] for e in entries] == ["main.scop0"]
    r2 = run_pgcc(["-O3", "-v", f"--tuning-db={db}", src, "-o", tmp / "b"])
    assert r2.returncode == 0 and f"tuning database {db}" in r2.stderr, r2.stderr
    assert entries[0]["variant_key"] in r2.stderr
    assert run_exe(tmp / "b").stdout == run_exe(tmp / "a").stdout
    r3 = run_pgcc(["-O3", "--autotune", "--no-parallel", src, "-o", tmp / "c"])
    assert r3.returncode == 1 and "cannot be combined" in r3.stderr


def _env(**kw):
    import os
    return dict(os.environ, **kw)
