"""The autotuner: search a kernel's schedule variants by measurement, keep the best per SCoP.

Strategy: successive halving (Jamieson & Talwalkar, "Non-stochastic Best Arm Identification and Hyperparameter
Optimization", AISTATS 2016; the inner loop of Hyperband, Li et al., JMLR 2018), with the number of timed
repetitions as the resource. n variants (pgcc's default schedule always among them, the others sampled from the
space with a fixed seed) are compiled and timed once; the faster 1/eta (eta = 2) are timed again with eta times
more repetitions, and so on until two remain; the last rung always holds the default schedule (in the place of
the slower finalist when it was dropped before, so that the budget is kept exactly), and a variant
replaces it only when it is at least `min_gain` (3 %) faster over all its runs, at the minimum and at the median.
Variants are ranked by their fastest run so far, over every rung (interference from other processes on a shared
machine only ever adds time, so the minimum is the estimate of a variant's own time that noise disturbs least).

Why it beats random sampling at equal budget (budget = timed runs): on a shared, noisy machine a variant must
be timed several times to be ranked reliably. Random sampling spends the same r repetitions on every sampled
variant (B / r variants for B runs): few repetitions rank the good variants on noise, many leave most of the
budget on bad ones. Successive halving times n = B / log2(n) variants once (8 for B = 24, as random sampling
with r = 3) and spends the further runs only on the variants still in contention: its two finalists are timed
n / 2 times each, so the decision between the best candidates rests on several times the repetitions at the
same cost, and a slow variant costs one run (benchmarks/autotune.py compares both at the same budget). It needs no library and no model of the space,
which mixes categorical choices (fusion policy, on/off switches) with tile sizes on a log scale, where a
Bayesian optimizer's surrogate would need many samples before it helps.

Variants that fail the legality check (illegal), do not compile, crash, hang (timeout) or print something else
than the untransformed program (wrong-output) are dropped at the rung where they fail: they are never selected.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import sys
from dataclasses import dataclass, field

from . import sweep as sw
from .sweep import Kernel, SweepConfig, Variant

TILE_SIZES = (8, 16, 32, 64, 128)
DEFAULT_BUDGET = 24
STRATEGY = "successive halving (Jamieson & Talwalkar 2016), eta=2, resource = timed repetitions"


def default_space(tile_sizes=TILE_SIZES, members: int = 3) -> list:
    """The variants the autotuner samples from: pgcc's default schedule; tile sizes per band member from
    `tile_sizes` (outermost first, `members` of them), default tiling and no tiling; each fusion policy;
    parallel loops on and off; unroll-and-jam on and off. The default variant comes first."""
    import itertools
    tiles = [None, ()] + [tuple(t) for t in itertools.product(tile_sizes, repeat=members)]
    out = [Variant()]
    for t, f, p, u in itertools.product(tiles, (None, "max", "none"), (True, False), (True, False)):
        v = Variant(tile_sizes=t, fusion=f, parallel=p, unroll_jam=u)
        if v != out[0]:
            out.append(v)
    return out


def plan(budget: int, eta: int = 2) -> list:
    """[(variants, repetitions)] per rung for the largest number of variants whose rungs fit in `budget` timed
    runs (each rung keeps 1/eta of the variants and times them eta times more; it stops at two variants)."""
    best = [(2, 1)]
    n = 2
    while True:
        rungs, k, r = [], n, 1
        while k > 1:
            rungs.append((k, r))
            k, r = k // eta, r * eta
        if sum(a * b for a, b in rungs) > budget:
            return best
        best, n = rungs, n + 1


@dataclass
class TuneResult:
    """What a search found for one kernel: the `best` variant (the default when nothing beats it), its median
    and the default schedule's over all their runs (seconds), `speedup` (default / best), the `rungs` (one Sweep
    each), `runs` (timed runs spent) and `evaluated` (distinct variants timed)."""
    kernel: Kernel
    best: Variant | None
    best_median_s: float | None
    default_median_s: float | None
    rungs: list = field(default_factory=list)
    runs: int = 0
    evaluated: int = 0
    strategy: str = STRATEGY

    @property
    def speedup(self) -> float | None:
        if self.best_median_s and self.default_median_s:
            return self.default_median_s / self.best_median_s
        return None


def successive_halving(kernel, candidates=None, budget: int = DEFAULT_BUDGET, *, eta: int = 2,
                       config: SweepConfig | None = None, seed: int = 0, min_gain: float = 0.03, **sweep_args) \
        -> TuneResult:
    """Successive halving over `candidates` (default: default_space()) within `budget` timed runs.

    Args:
        kernel: a Kernel or a path; budget: timed runs in total (compiles are not counted: each variant is
            compiled once per worker); eta: the fraction kept per rung is 1/eta; config: threads, timeouts and
            output tolerance (its reps is replaced by the rung's); seed: of the sample of candidates;
        min_gain: relative margin a variant needs over the default schedule at the last rung;
        sweep_args: passed to sweep.sweep (scheduler, n_workers, serial, journal, progress).

    Algorithm: Jamieson & Talwalkar 2016 (see the module's docstring).
    """
    with _one_cluster(sweep_args) as sweep_args:
        return _successive_halving(kernel, candidates, budget, eta, config, seed, min_gain, sweep_args)


@contextlib.contextmanager
def _one_cluster(sweep_args: dict):
    """sweep_args with one Dask client for every rung (a LocalCluster started here when none is given, so that
    the workers keep their compiled variants from rung to rung), closed at the end."""
    if sweep_args.get("serial") or not isinstance(sweep_args.get("scheduler"), (str, type(None))):
        yield sweep_args
        return
    client, owned = sw.make_client(sweep_args.get("scheduler"), sweep_args.get("n_workers"))
    try:
        yield dict(sweep_args, scheduler=client)
    finally:
        if owned:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def _successive_halving(kernel, candidates, budget, eta, config, seed, min_gain, sweep_args) -> TuneResult:
    kernel = kernel if isinstance(kernel, Kernel) else Kernel(kernel)
    candidates = list(candidates or default_space())
    cfg = config or SweepConfig()
    rungs = plan(budget, eta)
    default = Variant()
    pool = [default] + random.Random(seed).sample([c for c in candidates if c != default],
                                                  min(rungs[0][0] - 1, len(candidates) - (default in candidates)))
    result = TuneResult(kernel, None, None, None)
    seen, times = set(), {}  # times: every run of a variant, over the rungs
    for i, (_, reps) in enumerate(rungs):
        last = i == len(rungs) - 1
        if last and default not in pool:
            # the incumbent takes the last finalist's place: the decision is always against pgcc's default
            pool = pool[:-1] + [default] if len(pool) > 1 else pool + [default]
        res = sw.sweep([kernel], pool, config=_with_reps(cfg, reps), **sweep_args)
        result.rungs.append(res)
        result.runs += reps * len(pool)
        seen.update(pool)
        rows = {r["variant"]: r for r in res.ok(kernel.name) if r["median_s"] is not None}
        for v in pool:
            if v.key in rows:
                times.setdefault(v.key, []).extend(rows[v.key]["times"])
        # a variant that failed at this rung (a timeout, a dead worker) is out, whatever it did before
        ranked = sorted((v for v in pool if v.key in rows), key=lambda v: min(times[v.key]))
        if last or len(ranked) <= 1:
            d = rows.get(default.key)
            win = ranked[0] if ranked else None
            if win is not None and d is not None and win != default and not _clearly_faster(
                    times[win.key], times[default.key], min_gain):
                win = default
            result.best = win
            result.best_median_s = statistics.median(times[win.key]) if win else None
            result.default_median_s = statistics.median(times[default.key]) if d else None
            break
        pool = ranked[:max(1, len(pool) // eta)]
    result.evaluated = len(seen)
    return result


def _clearly_faster(a: list, b: list, min_gain: float) -> bool:
    """Whether runs `a` beat runs `b` by min_gain both at their minimum and at their median."""
    return min(a) < min(b) * (1 - min_gain) and statistics.median(a) < statistics.median(b) * (1 - min_gain)


def random_search(kernel, candidates=None, budget: int = DEFAULT_BUDGET, *, reps: int = 3,
                  config: SweepConfig | None = None, seed: int = 0, **sweep_args) -> TuneResult:
    """The baseline successive halving is compared with: budget // reps variants (the default among them)
    sampled from `candidates`, each timed `reps` times; the fastest that passed every check wins."""
    kernel = kernel if isinstance(kernel, Kernel) else Kernel(kernel)
    candidates = list(candidates or default_space())
    default = Variant()
    n = max(2, budget // reps)
    pool = [default] + random.Random(seed).sample([c for c in candidates if c != default],
                                                  min(n - 1, len(candidates) - (default in candidates)))
    res = sw.sweep([kernel], pool, config=_with_reps(config or SweepConfig(), reps), **sweep_args)
    rows = {r["variant"]: r for r in res.ok(kernel.name) if r["median_s"] is not None}
    best = min((v for v in pool if v.key in rows), key=lambda v: rows[v.key]["median_s"], default=None)
    return TuneResult(kernel, best, rows[best.key]["median_s"] if best else None,
                      rows[default.key]["median_s"] if default.key in rows else None, [res], reps * len(pool),
                      len(pool), f"random sampling, {reps} repetitions each")


def _with_reps(cfg: SweepConfig, reps: int) -> SweepConfig:
    import dataclasses
    return dataclasses.replace(cfg, reps=reps)


def emitted_schedules(kernel: Kernel, variant: Variant) -> dict:
    """{SCoP name: flat schedule text} that pgcc computes for `variant` (`--emit=scop`), for the database."""
    import json
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        flags = variant.flags()
        if variant.schedules:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump({"scops": [{"name": n, **e} for n, e in json.loads(variant.schedules).items()]}, f)
            flags.append(f"--schedule={path}")
        r = subprocess.run([sw._pgcc(), "-O3", *flags, *kernel.flags, *sw._define_flags(kernel.defines),
                            f"-I{os.path.dirname(kernel.path)}", kernel.path, "--emit=scop", "-S", "-o", "-"],
                           capture_output=True, text=True)
    if r.returncode != 0:
        return {}
    try:
        return {s["name"]: s.get("schedule", "") for s in json.loads(r.stdout)["scops"]}
    except (ValueError, KeyError):
        return {}


def store(result: TuneResult, db=None) -> list:
    """Store `result`'s best variant for every modelled SCoP of its kernel in tuning database `db` (a TuningDB,
    a path, or None for the default path). Returns the keys written (none when no variant passed the checks).

    Raises:
        CompileError: the kernel does not compile.
    """
    from . import tuning_db as tdb
    if result.best is None:
        return []
    db = db if isinstance(db, tdb.TuningDB) else tdb.TuningDB(db)
    k = result.kernel
    texts = tdb.scop_texts(k.path, list(k.flags) + sw._define_flags(k.defines) + [f"-I{os.path.dirname(k.path)}"])
    fkey = tdb.file_key(texts)
    emitted = emitted_schedules(k, result.best)
    keys = []
    for name, text, _ in texts:
        keys.append(db.put(text, {
            "scop": name, "kernel": k.path, "file_key": fkey, "defines": [list(p) for p in k.defines],
            "variant": result.best.document(), "variant_key": result.best.key,
            "variant_flags": result.best.flags(), "schedules": result.best.schedules,
            "schedule": emitted.get(name, ""), "median_s": result.best_median_s,
            "default_median_s": result.default_median_s, "speedup": result.speedup, "runs": result.runs,
            "evaluated": result.evaluated, "strategy": result.strategy, "threads": _threads(result)}))
    return keys


def _threads(result: TuneResult):
    rows = result.rungs[-1].rows if result.rungs else []
    return rows[0]["threads"] if rows else None


def autotune(path, budget: int = DEFAULT_BUDGET, *, defines=(), flags=(), space=None, db=None,
             save: bool = True, config: SweepConfig | None = None, seed: int = 0, **sweep_args) -> TuneResult:
    """Tune C program `path` (it must have a main that prints its results) and store the best variant per SCoP.

    Args:
        budget: timed runs in total; defines: macros of every build (e.g. the problem size to tune for); flags:
            further pgcc flags (-I, -std=); space: candidate Variants (default_space()); db: TuningDB, path, or
            None for the default database; save: store the result; config: SweepConfig (threads, timeouts);
        sweep_args: scheduler ("tcp://host:port" or a distributed.Client), n_workers, serial, journal, progress.

    Returns the TuneResult; the selected variant passed the legality and output checks, and is pgcc's default
    schedule unless a variant was measured faster (see successive_halving).

    Raises:
        ImportError: Dask is needed (not serial) and dask.distributed is not installed.
    """
    kernel = Kernel(path, defines=defines, flags=tuple(flags))
    result = successive_halving(kernel, space, budget, config=config, seed=seed, **sweep_args)
    if save:
        store(result, db)
    return result


def autotune_for_driver(path: str, o, db, budget) -> TuneResult:
    """`pgcc --autotune[=BUDGET]` for one C file: tune it (OMP_NUM_THREADS threads, default all cores; on the
    cluster of --scheduler=, else a LocalCluster, else serially when dask.distributed is missing) and store the
    result in TuningDB `db` (None: store nothing); a one-line summary goes to stderr."""
    budget = DEFAULT_BUDGET if budget is True else int(budget)
    threads = int(os.environ.get("OMP_NUM_THREADS") or os.cpu_count() or 1)
    try:
        import distributed  # noqa: F401
        serial = False
    except ImportError:
        serial = True
        print("pgcc: note: dask.distributed is not installed (pip install 'polygeist-py[distributed]'): "
              "autotuning in this process", file=sys.stderr)
    scheduler = getattr(o, "scheduler", None)
    kernel = Kernel(path, flags=tuple(o.clang_args))
    result = successive_halving(kernel, None, budget, config=SweepConfig(threads=threads), serial=serial,
                                scheduler=scheduler, progress=True)
    if result.best is None:
        print(f"pgcc: warning: {path}: autotuning found no variant that runs and prints what the untransformed "
              f"program prints ({_failures(result)}); nothing stored", file=sys.stderr)
        return result
    if db is not None:
        store(result, db)
    sp = result.speedup
    print(f"pgcc: autotuned {path}: {result.best.key} ({result.best_median_s:.4g} s"
          + (f", {sp:.2f}x the default schedule" if sp else "") + f"; {result.evaluated} variants, "
          f"{result.runs} timed runs)" + (f" -> {db.path}" if db is not None else ""), file=sys.stderr)
    return result


def _failures(result: TuneResult) -> str:
    rows = result.rungs[0].rows if result.rungs else []
    msgs = {r["status"]: r["message"].splitlines()[0] if r["message"] else "" for r in rows}
    return "; ".join(f"{k}: {v}"[:200] for k, v in msgs.items()) or "nothing ran"
