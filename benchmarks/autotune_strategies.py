"""Successive halving against random sampling at equal budget, replayed many times on measured runs.

One search on a shared machine is one draw of its noise: whether the autotuner's strategy beats random sampling
cannot be read from it. This script measures every candidate of a kernel's search many times once (the first
rung's candidates of benchmarks/autotune.py's per-SCoP search: pgcc's default and 7 variants of the kernel
function's SCoP sampled with the autotuner's seed; --reps interleaved rounds, affine/autotune.interleaved_sweep),
with the counter measure (affine/measure.py) and, from the same runs, their wall times. Then it replays both
strategies --trials times with the autotuner's own code (autotune.successive_halving, autotune.random_search),
each timed run drawn at random (with replacement) from the measured runs of its variant, and judges each choice
by the median of all the variant's measured runs in the same measure ("true" below):

- mean speedup: true(default) / true(choice), geometric mean over the trials;
- slower: the fraction of trials whose choice is truly slower than the default (by more than 1 %);
- near best: the fraction whose choice is within 3 % of the truly fastest candidate (closer than that, variants
  are ties: autotune.measurably_faster's min_gain).

Both strategies see the same candidates and spend the same budget (--budget timed runs; random sampling: budget //
3 variants, 3 runs each, fastest median wins, as autotune.random_search). The replay assumes that runs are
independent draws from what was measured (a drift of the machine's load during the real search is not replayed).

Usage: python benchmarks/autotune_strategies.py [--kernels gemm,syrk,2mm] [--reps 10] [--budget 24]
                                                [--trials 2000] [--threads 2] [--json out.json]
       python benchmarks/autotune_strategies.py --from-json out.json [--trials 2000]   # replay only
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import autotune as bench  # noqa: E402  (benchmarks/autotune.py: the instrumented kernels and their sizes)

from polygeist_py.affine import autotune as at  # noqa: E402
from polygeist_py.affine import sweep as sw  # noqa: E402
from polygeist_py.affine import tuning_db as tdb  # noqa: E402


def candidates(kernel: sw.Kernel, function: str, budget: int, seed: int = 0) -> list:
    """The first rung of the per-SCoP search of `kernel`'s `function` SCoP: the program Variants (the default
    first) that autotune.successive_halving samples with `seed` for `budget`."""
    (scop,) = [n for n, _, _ in tdb.scop_texts(kernel.path, at._clang_args(kernel)) if n.startswith(function + ".")]
    program = {}
    for v in at.default_space():
        program.setdefault(sw.Variant.per_scop({scop: v}), v)
    n = at.plan(budget)[0][0]
    default = sw.Variant()
    rest = [c for c in program if c != default]
    return [default] + random.Random(seed).sample(rest, min(n - 1, len(rest)))


def replay(kernel: sw.Kernel, pool: list, runs: dict, budget: int, trials: int, seed: int) -> dict:
    """Replay both strategies `trials` times over the Variants `pool` (the default first) on `runs` ({variant
    key: [measured values]}), with sweep.sweep replaced by draws from `runs` meanwhile; see the docstring."""
    truth = {k: statistics.median(v) for k, v in runs.items()}
    rng = random.Random(seed)

    def fake_sweep(kernels, variants, config=None, **kwargs):
        rows = []
        for v in variants:
            times = [rng.choice(runs[v.key]) for _ in range(config.reps)]
            rows.append({"kernel": kernel.name, "variant": v.key, "threads": config.threads, "status": sw.OK,
                         "times": times, "median_s": statistics.median(times), "message": ""})
        return sw.Sweep(rows)

    real, sw.sweep = sw.sweep, fake_sweep
    out = {}
    try:
        for name in ("successive halving", "random sampling"):
            speed, slower, near = [], 0, 0
            fastest = min(truth.values())
            for _ in range(trials):
                if name == "successive halving":
                    res = at.successive_halving(kernel, pool, budget, serial=True, progress=False,
                                                seed=rng.randrange(1 << 30))
                else:
                    res = at.random_search(kernel, pool, budget, reps=3, serial=True, progress=False,
                                           seed=rng.randrange(1 << 30))
                t = truth[(res.best or sw.Variant()).key]
                speed.append(truth[sw.Variant().key] / t)
                slower += t > 1.01 * truth[sw.Variant().key]
                near += t <= 1.03 * fastest
            out[name] = {"geomean_speedup": math.exp(sum(map(math.log, speed)) / len(speed)),
                         "slower": slower / trials, "near_best": near / trials}
    finally:
        sw.sweep = real
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="gemm,syrk,2mm")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--budget", type=int, default=at.DEFAULT_BUDGET)
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--measure", choices=sw.measure.MEASURES, default="auto")
    ap.add_argument("--json")
    ap.add_argument("--from-json", help="replay the runs measured by an earlier --json instead of measuring")
    a = ap.parse_args(argv)
    if a.from_json:
        return replay_file(a.from_json, a.trials)
    cfg = sw.SweepConfig(threads=a.threads, run_timeout=120, measure=a.measure)
    print(f"# load average before: {os.getloadavg()}", flush=True)
    results = []
    client, _ = sw.make_client(None, 2)
    try:
        with tempfile.TemporaryDirectory() as d:
            for name in a.kernels.split(","):
                k, function = bench.instrument(name, Path(d))
                pool = candidates(k, function, a.budget)
                res = at.interleaved_sweep(k, pool, a.reps, cfg, scheduler=client, progress=False)
                ok = {r["variant"]: r for r in res.ok(k.name) if len(r["times"]) == a.reps}
                pool = [v for v in pool if v.key in ok]  # (a variant that failed a check is out of both)
                rec = {"kernel": name, "measure": next((r["measure"] for r in ok.values()), None),
                       "variants": {v.key: {"times": ok[v.key]["times"], "wall_times": ok[v.key]["wall_times"]}
                                    for v in pool}}
                if sw.Variant().key not in ok:
                    print(f"{name}: the default schedule failed: {res.rows}", flush=True)
                    continue
                for label, field in (("counters", "times"), ("wall", "wall_times")):
                    runs = {v.key: ok[v.key][field] for v in pool}
                    noise = sw.noise(runs[sw.Variant().key])
                    rec[label] = dict(replay(k, pool, runs, a.budget, a.trials, 1), default_noise=noise)
                    _print(name, label, rec[label])
                results.append(rec)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    print(f"# load average after: {os.getloadavg()}")
    if a.json:
        Path(a.json).write_text(json.dumps({"budget": a.budget, "reps": a.reps, "trials": a.trials,
                                            "threads": a.threads, "kernels": results}, indent=1))
    return 0


def _print(name: str, label: str, rec: dict) -> None:
    print(f"{name:10s} {label:8s} default noise {rec['default_noise']:.3f}  " + "  ".join(
        f"{s}: {v['geomean_speedup']:.3f}x, slower {v['slower']:.1%}, near best {v['near_best']:.1%}"
        for s, v in rec.items() if isinstance(v, dict)), flush=True)


def replay_file(path: str, trials: int) -> int:
    """Replay both strategies on the runs an earlier --json measured (its "variants": key -> times, wall_times)."""
    doc = json.loads(Path(path).read_text())
    for rec in doc["kernels"]:
        k = sw.Kernel(rec["kernel"] + ".c", name=rec["kernel"])
        pool = [sw.Variant()] + [sw.Variant(schedules=_schedules(key)) for key in rec["variants"] if key != "default"]
        assert [v.key for v in pool] == list(rec["variants"]), "variant keys do not round-trip"
        for label, field in (("counters", "times"), ("wall", "wall_times")):
            runs = {key: r[field] for key, r in rec["variants"].items()}
            out = dict(replay(k, pool, runs, doc["budget"], trials, 1), default_noise=sw.noise(runs["default"]))
            _print(rec["kernel"], label, out)
    return 0


def _schedules(key: str) -> dict:
    """A per-SCoP variant's key ("scop[--tile-sizes=a,b,c --fusion=none --no-parallel --no-unroll-jam]") back to
    its schedule file entries."""
    import re
    out = {}
    for scop, flags in re.findall(r"(\S+)\[([^\]]*)\]", key):
        entry = {}
        for f in flags.split():
            if f.startswith("--tile-sizes="):
                entry["tile_sizes"] = [int(x) for x in f.split("=", 1)[1].split(",")]
            elif f == "--no-tiling":
                entry["tile_sizes"] = []
            elif f.startswith("--fusion="):
                entry["fusion"] = f.split("=", 1)[1]
            elif f == "--no-parallel":
                entry["parallel"] = False
            elif f in ("--no-unroll-jam", "--unroll-jam"):
                entry["unroll_jam"] = f == "--unroll-jam"
        out[scop] = entry
    return out


if __name__ == "__main__":
    sys.exit(main())
