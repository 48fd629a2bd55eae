"""The autotuner: search a kernel's schedule variants by measurement, keep the best per SCoP.

Strategy: successive halving (Jamieson & Talwalkar, "Non-stochastic Best Arm Identification and Hyperparameter
Optimization", AISTATS 2016; the inner loop of Hyperband, Li et al., JMLR 2018), with the number of timed
repetitions as the resource. n variants (pgcc's default schedule always among them, the others sampled from the
space with a fixed seed) are compiled and timed once; the faster 1/eta (eta = 2) are timed again with eta times
more repetitions, and so on until two remain; the last rung always holds the default schedule (in the place of
the slower finalist when it was dropped before, so that the budget is kept exactly), and a variant
replaces it only when it is measurably faster over all its runs (measurably_faster: every run of the variant
faster than every run of the incumbent, so that the gain exceeds the noise of the repetitions, and the medians at
least `min_gain`, 3 %, apart); a gain within the noise keeps the incumbent, so that the autotuner never stores a
schedule that was not measured at least as fast as the default.
A rung's repetitions are taken in rounds of one run per variant (interleaved_sweep), so that a drift of the
machine's load touches all its variants alike. Variants are ranked by their fastest run so far, over every rung
(interference from other processes on a shared machine only ever adds time, so the minimum is the estimate of a
variant's own time that noise disturbs least).

Why it beats random sampling at equal budget (budget = timed runs): on a shared, noisy machine a variant must
be timed several times to be ranked reliably. Random sampling spends the same r repetitions on every sampled
variant (B / r variants for B runs): few repetitions rank the good variants on noise, many leave most of the
budget on bad ones. Successive halving times n = B / log2(n) variants once (8 for B = 24, as random sampling
with r = 3) and spends the further runs only on the variants still in contention: its two finalists are timed
n / 2 times each, so the decision between the best candidates rests on several times the repetitions at the
same cost, and a slow variant costs one run (benchmarks/autotune.py compares both at the same budget). It needs no library and no model of the space,
which mixes categorical choices (fusion policy, on/off switches) with tile sizes on a log scale, where a
Bayesian optimizer's surrogate would need many samples before it helps.

Per SCoP: a file with several modelled SCoPs is tuned one SCoP at a time (block coordinate descent), heaviest
first (deepest loops, then most statements: tuning_db.scop_texts' weight), each by successive halving over the
space above applied to that SCoP alone (a per-SCoP entry of a --schedule file, user_schedule.py), the SCoPs
already tuned at their best so far and the others at pgcc's default; the incumbent a SCoP's candidates must beat
is that best-so-far program. Why not successive halving over the product space, pruned: its size is the space's
size to the power of the number of SCoPs, so a budget of tens of runs samples a vanishing part of it, and a
sampled combination that wins says nothing about which of its SCoPs made it win. The SCoPs of a program run one
after the other, so its time is close to the sum of theirs and the choices barely interact (through the
caches they leave); for such a nearly separable objective one pass of coordinate descent reaches what a search
of the product space would, at the cost of one search per SCoP, and each SCoP's own best is what the tuning
database stores for it (another file containing the SCoP gets exactly that choice).

Budget: BUDGET is the number of timed runs for the whole file, as for one SCoP (compiles and the untransformed
program's runs are not counted). It is split evenly between the SCoPs (the heaviest get the remainder); since a
search needs at least 2 runs, only the heaviest BUDGET // 2 SCoPs are tuned when there are more, the others
keep pgcc's default.

Variants that fail the legality check (illegal), do not compile, crash, hang (timeout) or print something else
than the untransformed program (wrong-output) are dropped at the rung where they fail: they are never selected
(per SCoP, every candidate is a whole program, checked as such).

What a "run's time" is comes from SweepConfig.measure (affine/measure.py): by default the per-task counters of
the program's slowest thread (hardware cycles, else the kernel's task-clock in CPU seconds), which a busy
machine's other processes do not inflate by making the program wait for a CPU; wall time where perf_event_open
is refused. Rankings, the noise rule and the stored medians are all in that measure (the database entry names it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import statistics
import sys
from dataclasses import dataclass, field

from polygeist_py.errors import CompileError

from . import measure
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
    and the default schedule's over all their runs (in the sweep's measure: wall seconds, CPU seconds of the
    slowest thread for task-clock, or its cycles; see affine/measure.py), `speedup` (default / best), the `rungs` (one Sweep
    each), `runs` (timed runs spent) and `evaluated` (distinct variants timed). Tuned per SCoP (tune_scops):
    `best` is the whole program's Variant (per-SCoP entries), `scops` each tuned SCoP's own choice (a Variant
    for a whole file, as in the space), `stages` the search of each SCoP; `default_median_s` is from the first
    search (pgcc's default schedule), `best_median_s` from the last. `best_noise` / `default_noise`: the
    noise (sweep.noise, (max - min) / median) of the runs the last decision rested on, `best_times` /
    `default_times` those runs (seconds)."""
    kernel: Kernel
    best: Variant | None
    best_median_s: float | None
    default_median_s: float | None
    rungs: list = field(default_factory=list)
    runs: int = 0
    evaluated: int = 0
    strategy: str = STRATEGY
    scops: dict = field(default_factory=dict)  # per-SCoP tuning: {scop name: its own best Variant}
    stages: list = field(default_factory=list)  # per-SCoP tuning: [(scop name, TuneResult of its search)]
    scop_texts: list | None = None  # tuning_db.scop_texts of the kernel, when tune_scops computed them
    best_noise: float | None = None
    default_noise: float | None = None
    best_times: list = field(default_factory=list)
    default_times: list = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        if self.best_median_s and self.default_median_s:
            return self.default_median_s / self.best_median_s
        return None


def successive_halving(kernel, candidates=None, budget: int = DEFAULT_BUDGET, *, eta: int = 2,
                       config: SweepConfig | None = None, seed: int = 0, min_gain: float = 0.03,
                       incumbent: Variant | None = None, **sweep_args) -> TuneResult:
    """Successive halving over `candidates` (default: default_space()) within `budget` timed runs.

    Args:
        kernel: a Kernel or a path; budget: timed runs in total (compiles are not counted: each variant is
            compiled once per worker); eta: the fraction kept per rung is 1/eta; config: threads, timeouts and
            output tolerance (its reps is replaced by the rung's); seed: of the sample of candidates;
        min_gain: relative margin a variant needs over the incumbent at the last rung;
        incumbent: the variant to beat, always timed and in the last rung (default: pgcc's default, Variant());
        sweep_args: passed to sweep.sweep (scheduler, n_workers, serial, journal, progress).

    Algorithm: Jamieson & Talwalkar 2016 (see the module's docstring).
    """
    with _one_cluster(sweep_args) as sweep_args:
        return _successive_halving(kernel, candidates, budget, eta, config, seed, min_gain, sweep_args,
                                   incumbent or Variant())


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


def _successive_halving(kernel, candidates, budget, eta, config, seed, min_gain, sweep_args,
                        default: Variant) -> TuneResult:
    kernel = kernel if isinstance(kernel, Kernel) else Kernel(kernel)
    candidates = list(candidates or default_space())
    cfg = config or SweepConfig()
    rungs = plan(budget, eta)
    pool = [default] + random.Random(seed).sample([c for c in candidates if c != default],
                                                  min(rungs[0][0] - 1, len(candidates) - (default in candidates)))
    result = TuneResult(kernel, None, None, None)
    seen, times = set(), {}  # times: every run of a variant, over the rungs
    for i, (_, reps) in enumerate(rungs):
        last = i == len(rungs) - 1
        if last and default not in pool:
            # the incumbent takes the last finalist's place: the decision is always against pgcc's default
            pool = pool[:-1] + [default] if len(pool) > 1 else pool + [default]
        res = interleaved_sweep(kernel, pool, reps, cfg, **sweep_args)
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
            if win is not None and d is not None and win != default and not measurably_faster(
                    times[win.key], times[default.key], min_gain):
                win = default  # a gain within the noise is not preferred to the incumbent
            elif win is not None and d is None and win != default and not any(
                    r["variant"] == default.key and r["status"] == sw.TIMEOUT for r in res.rows):
                win = None  # the incumbent failed this rung (not by being too slow): no gain can be measured
            result.best = win
            result.best_median_s = statistics.median(times[win.key]) if win else None
            result.best_noise = sw.noise(times[win.key]) if win else None
            result.default_median_s = statistics.median(times[default.key]) if d else None
            result.default_noise = sw.noise(times[default.key]) if d else None
            result.best_times = list(times[win.key]) if win else []
            result.default_times = list(times[default.key]) if d else []
            break
        pool = ranked[:max(1, len(pool) // eta)]
    result.evaluated = len(seen)
    return result


def interleaved_sweep(kernel: Kernel, variants: list, reps: int, config: SweepConfig | None = None,
                      **sweep_args) -> sw.Sweep:
    """A sweep of `variants` of `kernel` with `reps` timed runs each, taken in `reps` rounds of one run of every
    variant (each round a sweep.sweep with reps=1), so that a drift of the machine's load over the rung touches
    all variants alike instead of the ones timed last (a sweep times a variant's repetitions back to back). A
    worker compiles and checks a variant's output once; later rounds only time it. Rows as sweep.sweep's, with
    every round's times; a variant that fails a round has that round's failed row and is left out of the next
    ones. With a `journal` in sweep_args, one sweep of `reps` repetitions (the journal identifies a row by
    kernel, variant, threads and repetitions, so the rounds would read back the first round's row)."""
    cfg = config or SweepConfig()
    if reps <= 1 or sweep_args.get("journal"):
        return sw.sweep([kernel], variants, config=_with_reps(cfg, reps), **sweep_args)
    rows, wall = {}, 0.0
    for _ in range(reps):
        variants = [v for v in variants if rows.get(v.key, {}).get("status", sw.OK) == sw.OK]
        if not variants:  # (a variant that failed a round, a timeout say, is not run again)
            break
        res = sw.sweep([kernel], variants, config=_with_reps(cfg, 1), **sweep_args)
        wall += res.wall_s
        for r in res.rows:  # (every variant of this round passed the rounds before)
            old = rows.get(r["variant"])
            rows[r["variant"]] = dict(r, times=(old["times"] if old else []) + r["times"],
                                      wall_times=(old.get("wall_times", []) if old else []) + r.get("wall_times", []))
    out = []
    for r in rows.values():
        times = r["times"]
        r["reps"] = reps
        if r["status"] == sw.OK and times:
            n = sw.noise(times)
            r.update(median_s=sw._round(statistics.median(times)), min_s=sw._round(min(times)),
                     noise=None if n is None else round(n, 4))
        out.append(r)
    return sw.Sweep(out, wall)


def measurably_faster(a: list, b: list, min_gain: float = 0.03) -> bool:
    """Whether runs `a` (seconds, of a candidate) are measurably faster than runs `b` (of the incumbent).

    Measurably: each has at least two runs (one run has no measured noise), every run of `a` is faster than
    every run of `b`, i.e. the gain between the medians exceeds the noise of the repetitions on both sides,
    median(b) - median(a) > (max(a) - median(a)) + (median(b) - min(b)), and the medians differ by at least
    `min_gain` (relative to b's). A gain within the noise, or below min_gain, is no gain: the incumbent stays.
    (All-runs separation of two samples of n and m runs has probability 1 / C(n + m, n) when both come from the
    same distribution: 1/35 for 4 and 4, the last rung of budget 24.)"""
    if len(a) < 2 or len(b) < 2:
        return False
    return max(a) < min(b) and statistics.median(a) < statistics.median(b) * (1 - min_gain)


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


def split_budget(budget: int, n: int) -> list:
    """Timed runs per SCoP, heaviest first, for `n` SCoPs sharing `budget`: an even split (the first get the
    remainder), over the first budget // 2 SCoPs only when there are more (a search needs 2 runs)."""
    k = min(n, budget // 2)
    return [budget // k + (1 if i < budget % k else 0) for i in range(k)] if k else []


def tune_scops(kernel, candidates=None, budget: int = DEFAULT_BUDGET, *, eta: int = 2,
               config: SweepConfig | None = None, seed: int = 0, min_gain: float = 0.03, scops=None,
               **sweep_args) -> TuneResult:
    """Tune each modelled SCoP of `kernel` on its own (see the module's docstring: one SCoP at a time, heaviest
    first, the others at their best so far), within `budget` timed runs in all; a file with one SCoP (or none)
    is tuned as a whole by successive_halving.

    Args: as successive_halving; `candidates` are whole-file Variants (default: default_space()), each applied
        to one SCoP at a time (Variant.scop_entry); `scops`: the names of the SCoPs to tune (default: all),
        e.g. only those whose time a Kernel.timer measures; the others keep pgcc's default, and the budget is
        split between the tuned ones.

    Returns a TuneResult whose `best` is the program's variant (per-SCoP entries, Variant.per_scop) and whose
    `scops` holds each tuned SCoP's own best (pgcc's default, Variant(), when nothing beat it).

    Raises:
        CompileError: the kernel does not compile (its SCoPs cannot be modelled).
    """
    from . import tuning_db as tdb
    kernel = kernel if isinstance(kernel, Kernel) else Kernel(kernel)
    candidates = list(candidates or default_space())
    texts = tdb.scop_texts(kernel.path, _clang_args(kernel))
    tuned = [t for t in texts if scops is None or t[0] in set(scops)]
    if scops is not None and not tuned:
        raise ValueError(f"{kernel.path}: no modelled SCoP among {sorted(scops)} "
                         f"(the SCoPs are {[t[0] for t in texts]})")
    with _one_cluster(sweep_args) as sweep_args:
        if len(texts) <= 1:
            res = _successive_halving(kernel, candidates, budget, eta, config, seed, min_gain, sweep_args,
                                      Variant())
            if res.best is not None:
                res.scops = {name: res.best for name, _, _ in texts}
            res.scop_texts = texts
            return res
        order = [name for name, _, _ in sorted(tuned, key=lambda t: t[2], reverse=True)]
        chosen = {}  # scop -> its best Variant so far (absent: pgcc's default)
        result = TuneResult(kernel, None, None, None, strategy=f"per SCoP, one at a time: {STRATEGY}",
                            scop_texts=texts)
        for i, (scop, share) in enumerate(zip(order, split_budget(budget, len(order)))):
            incumbent = Variant.per_scop(chosen)
            program = {}  # the candidate programs: this SCoP with each variant of the space
            for v in candidates:
                program.setdefault(Variant.per_scop({**chosen, scop: v}), v)
            res = _successive_halving(kernel, list(program), share, eta, config, seed + i, min_gain, sweep_args,
                                      incumbent)
            result.stages.append((scop, res))
            result.rungs += res.rungs
            result.runs += res.runs
            result.evaluated += res.evaluated
            if res.best is None:  # nothing passed the checks, not even the incumbent: keep what was chosen
                continue
            if result.default_median_s is None and i == 0:
                result.default_median_s = res.default_median_s
            if res.best != incumbent:
                chosen[scop] = program[res.best]
            result.scops[scop] = chosen.get(scop, Variant())
            result.best, result.best_median_s = res.best, res.best_median_s
            result.best_noise, result.best_times = res.best_noise, res.best_times
            if i == 0:
                result.default_noise, result.default_times = res.default_noise, res.default_times
        if result.best is not None:
            result.best = Variant.per_scop(chosen)
        return result


def _clang_args(k: Kernel) -> list:
    return list(k.flags) + sw._define_flags(k.defines) + [f"-I{os.path.dirname(k.path)}"]


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
                json.dump({"scops": [{"name": n, **e} for n, e in variant.entries().items()]}, f)
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
    """Store in tuning database `db` (a TuningDB, a path, or None for the default path) each modelled SCoP's own
    best variant: `result.scops[scop]` when it was tuned per SCoP (SCoPs left untuned get nothing), else
    `result.best` for every SCoP (a search of the whole file). A stored variant keeps only its SCoP's own user
    schedule. Returns the keys written (none when no variant passed the checks).

    Raises:
        CompileError: the kernel does not compile.
    """
    from . import tuning_db as tdb
    if result.best is None:
        return []
    db = db if isinstance(db, tdb.TuningDB) else tdb.TuningDB(db)
    k = result.kernel
    texts = result.scop_texts if result.scop_texts is not None else tdb.scop_texts(k.path, _clang_args(k))
    emitted = emitted_schedules(k, result.best)
    stages = dict(result.stages)
    keys = []
    for name, text, _ in texts:
        own = result.scops.get(name) if result.scops or result.stages else result.best
        if own is None:
            continue
        sched = own.entries().get(name)
        own = dataclasses.replace(own, schedules={name: sched} if sched else None)
        stage = stages.get(name, result)
        keys.append(db.put(text, {
            "scop": name, "kernel": k.path, "defines": [list(p) for p in k.defines],
            "variant": own.document(), "variant_key": own.key, "variant_flags": own.flags(),
            "schedules": own.schedules, "schedule": emitted.get(name, ""),
            "program_variant": result.best.key, "median_s": stage.best_median_s,
            "default_median_s": stage.default_median_s, "speedup": stage.speedup, "noise": stage.best_noise,
            "default_noise": stage.default_noise, "runs": result.runs,
            "evaluated": result.evaluated, "strategy": result.strategy, "threads": _threads(result),
            "measure": _measure(result)}))
    return keys


def _measure(result: TuneResult):
    """The measure the runs of the last rung used (sweep rows' `measure`), None without rows."""
    rows = result.rungs[-1].rows if result.rungs else []
    return next((r.get("measure") for r in rows if r.get("measure")), None)


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
    result = tune_scops(kernel, space, budget, config=config, seed=seed, **sweep_args)
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
    how = getattr(o, "autotune_measure", "auto")
    try:
        note = measure.fallback_note(how) or (f"timing by {how}" if how != "auto" else "")
        measure.resolve(how)
    except ValueError as e:
        raise CompileError(f"--autotune-measure={how}: {e}") from None
    if note:
        print(f"pgcc: note: {note}", file=sys.stderr)
    kernel = Kernel(path, flags=tuple(o.clang_args))
    result = tune_scops(kernel, None, budget, config=SweepConfig(threads=threads, measure=how), serial=serial,
                        scheduler=scheduler, progress=True)
    if result.best is None:
        print(f"pgcc: warning: {path}: autotuning found no variant that runs and prints what the untransformed "
              f"program prints ({_failures(result)}); nothing stored", file=sys.stderr)
        return result
    if db is not None:
        store(result, db)
    sp = result.speedup
    unit = {"cycles": " cycles of the slowest thread", "task-clock": " CPU s of the slowest thread"}.get(
        _measure(result), " s")
    print(f"pgcc: autotuned {path}: {result.best.key} ({result.best_median_s:.4g}{unit}"
          + (f", {sp:.2f}x the default schedule" if sp else "") + f"; {result.evaluated} variants, "
          f"{result.runs} timed runs)" + (f" -> {db.path}" if db is not None else ""), file=sys.stderr)
    return result


def _failures(result: TuneResult) -> str:
    rows = result.rungs[0].rows if result.rungs else []
    msgs = {r["status"]: r["message"].splitlines()[0] if r["message"] else "" for r in rows}
    return "; ".join(f"{k}: {v}"[:200] for k, v in msgs.items()) or "nothing ran"
