"""The autotuner against pgcc's default -O3 schedule, and the sweep's throughput with 1 and 2 Dask workers.

What is measured: the kernel call alone (the ``kernel_<name>(...)`` call in ``main`` of
tests/programs/polybench/<name>.c, wrapped by a copy of the program that prints its wall seconds and the CPU seconds
of the main thread and of all threads during the call: ``autotune-kernel-seconds <s> main-cpu <s> process-cpu <s>``;
the sweep reads it through Kernel.timer), at OMP_NUM_THREADS=--threads, threads pinned (OMP_PROC_BIND=close,
OMP_PLACES=cores). --measure (affine/measure.py; default auto) says what ranks the variants and judges them:
with a counter measure available (task-clock or cycles), the CPU seconds of the slowest thread during the call
(max(main, workers' share) at 2 threads, OMP_WAIT_POLICY=passive), which waiting for a CPU behind other processes
does not inflate; with --measure wall (or where perf_event_open is refused), the call's wall time. The table
gives the ratio in the chosen measure and, beside it, the ratio of the same runs' wall times. The sizes (SIZES)
give every kernel tens of milliseconds per call at the default schedule and 2 threads on a quiet 2-core machine
(about 50 to 100 ms of CPU time at 1 thread).

Timing isolation (affine/sweep.py: machine_slot, compile_slot): the workers of one machine take turns to run
programs (a distributed.Lock per host), and a timed run reserves --threads of the machine's cores, so no compile
runs on the cores its threads are pinned to; compiles run side by side otherwise.

For each kernel (default: the six gemm, jacobi_2d, syrk, 2mm, heat_3d, seidel_2d):
1. the autotuner's search with --budget timed runs, on a LocalCluster of --workers workers: per SCoP
   (tune_scops: successive halving, the kernel function's SCoP only, since only its time is measured), or with
   --search whole-file one successive halving of the whole file's flags; a variant replaces the default only
   when measurably faster (autotune.measurably_faster: every run faster than every run of the default, the
   medians at least 3 % apart);
2. with --random, random sampling with the same budget (budget // 3 variants, 3 repetitions each);
3. a final check of the default schedule and the choice(s), --final-reps rounds of one run of each
   (autotune.interleaved_sweep, so that a drift of the machine's load touches both alike): the table's
   times are medians of these runs, noise = (max - min) / median of them, ratio = default median / choice
   median (> 1: the choice is faster), verdict: "faster" (measurably, as above), "within noise", "SLOWER"
   (the default measurably faster), or "default kept" (the search stored the default schedule).
Every variant's output is checked against the untransformed program; the tuning database is not written.

Throughput: one sweep of a fixed space (--throughput-variants variants of gemm and jacobi_2d, 1 thread, 3
repetitions) on 1 and on 2 workers: wall seconds (cluster start included) and variants per minute.

Usage: python benchmarks/autotune.py [--kernels gemm,jacobi_2d,...] [--budget 24] [--threads 2] [--workers 2]
                                     [--search per-scop|whole-file] [--final-reps 7] [--random] [--json out.json]
                                     [--no-throughput]
Sized for 10 to 15 minutes on a quiet 2-core machine with the defaults (it prints the seconds it took). On a
shared machine, report the ratios as "under load" (the load average is printed before and after).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from polygeist_py.affine import autotune as at
from polygeist_py.affine import sweep as sw
from polygeist_py.affine import tuning_db as tdb

ROOT = Path(__file__).resolve().parent.parent
POLYBENCH = ROOT / "tests" / "programs" / "polybench"
SIZES = {  # tens of milliseconds per kernel call at the default schedule, 2 threads, quiet 2-core machine
    "gemm": {"NI": 730, "NJ": 760, "NK": 800},
    "jacobi_2d": {"TSTEPS": 200, "N": 650},
    "syrk": {"N": 1000, "M": 800},
    "2mm": {"NI": 560, "NJ": 560, "NK": 560, "NL": 560},
    "heat_3d": {"TSTEPS": 20, "N": 100},
    "seidel_2d": {"TSTEPS": 40, "N": 800},
    "mvt": {"N": 3000},
    "atax": {"M": 2000, "N": 2400},
}
KERNELS = "gemm,jacobi_2d,syrk,2mm,heat_3d,seidel_2d"
TIMER = (r"autotune-kernel-seconds (?P<wall>[0-9.eE+-]+) main-cpu (?P<main>[0-9.eE+-]+)"
         r" process-cpu (?P<total>[0-9.eE+-]+)")
KERNEL_CALL = re.compile(r"^(\s*)(kernel_\w+\s*\(.*\)\s*;)\s*$", re.M)
# the kernel call's wall time, and the CPU time of the main thread and of all threads (workers included, while
# they live) during it: the per-task clocks that the sweep's task-clock measure reads (affine/measure.py)
TIMER_C = r"""
#include <time.h>
static struct timespec autotune_t0[3];
static const clockid_t autotune_clocks[3] = {CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID};
static double autotune_since(int i)
{
  struct timespec t1;
  clock_gettime(autotune_clocks[i], &t1);
  return (double)(t1.tv_sec - autotune_t0[i].tv_sec) + 1e-9 * (t1.tv_nsec - autotune_t0[i].tv_nsec);
}
static void autotune_timer_start(void)
{
  int i;
  for (i = 2; i >= 0; i--)
    clock_gettime(autotune_clocks[i], &autotune_t0[i]);
}
static void autotune_timer_stop(void)
{
  double wall = autotune_since(0), main_cpu = autotune_since(1), process_cpu = autotune_since(2);
  printf("autotune-kernel-seconds %.9f main-cpu %.9f process-cpu %.9f\n", wall, main_cpu, process_cpu);
}
"""


def instrument(name: str, workdir: Path) -> tuple:
    """(Kernel, kernel function name): a copy of the kernel's program that times its kernel call, as a sweep
    Kernel with its sizes, and the name of the function it calls (whose SCoPs the timer measures)."""
    source = (POLYBENCH / f"{name}.c").read_text()
    calls = KERNEL_CALL.findall(source)
    if len(calls) != 1:
        raise ValueError(f"{name}: expected one kernel_*(...); call")
    head, rest = source.split("\n", 1)
    rest = KERNEL_CALL.sub(r"\1autotune_timer_start(); \2 autotune_timer_stop();", rest)
    decls = " static void autotune_timer_start(void); static void autotune_timer_stop(void);"
    path = workdir / f"{name}.c"
    path.write_text(head + decls + "\n" + rest + TIMER_C)
    function = re.match(r"(kernel_\w+)", calls[0][1]).group(1)
    return sw.Kernel(str(path), defines=SIZES.get(name, {}), name=name, timer=TIMER), function


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _fmt(x, spec: str) -> str:
    """`x` formatted, or "n/a" (a failed variant, a noise of one repetition)."""
    return "n/a" if x is None else format(x, spec)


def verdict(choice, default_times, times) -> str:
    """How the final check judges a choice against the default schedule (see the module's docstring)."""
    if choice is None:
        return "no variant passed"
    if choice == sw.Variant():
        return "default kept"
    if len(times) < 2 or len(default_times) < 2:
        return "n/a"
    if at.measurably_faster(times, default_times):
        return "faster"
    if at.measurably_faster(default_times, times, min_gain=0.0):
        return "SLOWER"
    return "within noise"


def _load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default=KERNELS)
    ap.add_argument("--budget", type=int, default=at.DEFAULT_BUDGET, help="timed runs per kernel")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--search", choices=["per-scop", "whole-file"], default="per-scop",
                    help="the autotuner's per-SCoP search, or successive halving over the whole file's flags")
    ap.add_argument("--final-reps", type=int, default=7)
    ap.add_argument("--random", action="store_true", help="also random sampling at the same budget")
    ap.add_argument("--throughput-variants", type=int, default=6)
    ap.add_argument("--no-throughput", action="store_true")
    ap.add_argument("--measure", choices=sw.measure.MEASURES, default="auto",
                    help="what ranks and judges the variants (affine/measure.py): auto, cycles, task-clock, wall")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    t_start = time.perf_counter()
    load_before = os.getloadavg()
    cfg = sw.SweepConfig(threads=a.threads, run_timeout=120, measure=a.measure)
    note = sw.measure.fallback_note(a.measure)
    strategy = at.STRATEGY + (", per SCoP (the kernel function's)" if a.search == "per-scop" else ", whole file")
    print(f"# autotuned vs default -O3 schedule: {a.threads} threads, {a.workers} workers, budget {a.budget} "
          f"timed runs per kernel, final check {a.final_reps} repetitions each; {_load()}", flush=True)
    print(f"# strategy: {strategy}", flush=True)
    print(f"# measure: {a.measure}" + (f" ({note})" if note else ""), flush=True)
    records = []
    client, _ = sw.make_client(None, a.workers)
    try:
        with tempfile.TemporaryDirectory() as d:
            for name in a.kernels.split(","):
                t0 = time.perf_counter()
                k, function = instrument(name, Path(d))
                if a.search == "per-scop":
                    scops = [n for n, _, _ in tdb.scop_texts(k.path, at._clang_args(k))
                             if n.startswith(function + ".")]
                    sh = at.tune_scops(k, None, a.budget, config=cfg, scheduler=client, progress=False,
                                       scops=scops)
                else:
                    sh = at.successive_halving(k, None, a.budget, config=cfg, scheduler=client, progress=False)
                rnd = at.random_search(k, None, a.budget, reps=3, config=cfg, scheduler=client, progress=False) \
                    if a.random else None
                choices = [sh.best] + ([rnd.best] if rnd else [])
                final = [sw.Variant()] + [v for v in dict.fromkeys(choices) if v and v != sw.Variant()]
                res = at.interleaved_sweep(k, final, a.final_reps, cfg, scheduler=client, progress=False)
                rows = {r["variant"]: r for r in res.rows}
                d0 = rows[sw.Variant().key]

                def judged(v):
                    """(median s, noise, ratio, verdict) of choice `v` in the final check."""
                    r = rows.get((v or sw.Variant()).key)
                    if v is None or r is None or not r["median_s"]:
                        return None, None, None, verdict(None, [], [])
                    ratio = d0["median_s"] / r["median_s"] if d0["median_s"] else None
                    return r["median_s"], r["noise"], ratio, verdict(v, d0["times"], r["times"])

                def wall_ratio(v):
                    """default / choice of the final check's wall-time medians (the same runs)."""
                    r = rows.get((v or sw.Variant()).key)
                    if v is None or r is None or not r.get("wall_times") or not d0.get("wall_times"):
                        return None
                    return statistics.median(d0["wall_times"]) / statistics.median(r["wall_times"])
                med, noi, ratio, ver = judged(sh.best)
                rec = {"kernel": name, "sizes": SIZES.get(name, {}), "default_s": d0["median_s"],
                       "default_noise": d0["noise"], "default_times": d0["times"], "tuned_s": med,
                       "tuned_noise": noi, "ratio": ratio, "verdict": ver,
                       "tuned_times": rows.get((sh.best or sw.Variant()).key, {}).get("times"),
                       "variant": sh.best.key if sh.best else None,
                       "search_default_noise": sh.default_noise, "search_best_noise": sh.best_noise,
                       "variants_seen": sh.evaluated, "runs": sh.runs, "search": a.search,
                       "scops": {n: v.key for n, v in sh.scops.items()}, "seconds": None,
                       "measure": d0.get("measure"), "wall_ratio": wall_ratio(sh.best),
                       "default_wall_noise": sw.noise(d0.get("wall_times") or [])}
                if rnd:
                    rmed, rnoi, rratio, rver = judged(rnd.best)
                    rec.update(random_variant=rnd.best.key if rnd.best else None, random_s=rmed,
                               random_noise=rnoi, random_ratio=rratio, random_verdict=rver,
                               random_variants_seen=rnd.evaluated, random_runs=rnd.runs,
                               random_wall_ratio=wall_ratio(rnd.best))
                rec["seconds"] = time.perf_counter() - t0
                records.append(rec)
                print(f"{name:10s} default {_fmt(rec['default_s'], '.4f')} s "
                      f"(noise {_fmt(rec['default_noise'], '.3f')})"
                      f"  tuned {_fmt(med, '.4f')} s (noise {_fmt(noi, '.3f')})  {_fmt(ratio, '.2f')}x {ver}"
                      f" (wall {_fmt(rec['wall_ratio'], '.2f')}x, wall noise {_fmt(rec['default_wall_noise'], '.3f')})"
                      f"  [{rec['variant']}; {sh.evaluated} variants, {sh.runs} runs; {rec['seconds']:.0f} s]"
                      + (f"  random {_fmt(rec['random_ratio'], '.2f')}x {rec['random_verdict']}" if rnd else ""),
                      flush=True)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    out = {"budget": a.budget, "threads": a.threads, "workers": a.workers, "search": a.search,
           "measure": next((r["measure"] for r in records if r.get("measure")), a.measure),
           "load_before": load_before, "load_after": os.getloadavg(),
           "strategy": strategy, "final_reps": a.final_reps, "kernels": records,
           "geomean": geomean([r["ratio"] for r in records]),
           "random_geomean": geomean([r.get("random_ratio") for r in records]) if a.random else None}
    if not a.no_throughput:
        space = at.default_space()[:a.throughput_variants]
        with tempfile.TemporaryDirectory() as d:
            ks = [instrument(n, Path(d))[0] for n in ("gemm", "jacobi_2d")]
            tp = {}
            for workers in (1, 2):
                t0 = time.perf_counter()
                sw.sweep(ks, space, config=sw.SweepConfig(threads=1, reps=3), n_workers=workers, progress=False)
                tp[workers] = time.perf_counter() - t0
        out["throughput_s"] = tp
        out["throughput_variants"] = len(ks) * len(space)
    out["wall_s"] = time.perf_counter() - t_start
    print(table(out))
    print(f"# {_load()}; {out['wall_s']:.0f} s in all")
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


def table(out: dict) -> str:
    """The benchmark's results as the Markdown tables docs/autotuning.md quotes."""
    rnd = out.get("random_geomean") is not None
    unit = {"task-clock": "CPU seconds of the slowest thread", "cycles": "cycles of the slowest thread"}.get(
        out.get("measure"), "wall seconds")
    lines = [f"Autotuned ({out['strategy']}; budget {out['budget']} timed runs per kernel) against the default "
             f"-O3 schedule, {out['threads']} threads, kernel call measured by {out.get('measure')} ({unit}), "
             f"median of {out['final_reps']} runs; noise = (max - min) / median; ratio = default / tuned; "
             "wall = the same ratio of the same runs' wall times.", "",
             "| kernel (sizes) | default | noise | tuned | noise | ratio | wall | verdict | tuned variant |"
             + (" random (wall) |" if rnd else ""),
             "|---|---|---|---|---|---|---|---|---|" + ("---|" if rnd else "")]
    for r in out["kernels"]:
        sizes = "x".join(str(v) for v in r["sizes"].values())
        lines.append(f"| {r['kernel']} ({sizes}) | {_fmt(r['default_s'], '.4f')} s | {_fmt(r['default_noise'], '.3f')} "
                     f"| {_fmt(r['tuned_s'], '.4f')} s | {_fmt(r['tuned_noise'], '.3f')} | {_fmt(r['ratio'], '.2f')}x "
                     f"| {_fmt(r.get('wall_ratio'), '.2f')}x | {r['verdict']} | `{r['variant']}` |"
                     + (f" {_fmt(r.get('random_ratio'), '.2f')}x ({_fmt(r.get('random_wall_ratio'), '.2f')}x) "
                        f"{r.get('random_verdict')}, `{r.get('random_variant')}` |" if rnd else ""))
    lines.append(f"| geomean | | | | | {_fmt(out['geomean'], '.3f')}x | | | |"
                 + (f" {_fmt(out['random_geomean'], '.3f')}x |" if rnd else ""))
    if "throughput_s" in out:
        n = out["throughput_variants"]
        lines += ["", f"Sweep throughput ({n} variants of gemm and jacobi_2d, 1 thread, 3 repetitions, cluster "
                  "start included):", "", "| workers | wall | variants/min |", "|---|---|---|"]
        for w, t in out["throughput_s"].items():
            lines.append(f"| {w} | {t:.1f} s | {60 * n / t:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
