"""The autotuner against pgcc's default -O3 schedule, and the sweep's throughput with 1 and 2 Dask workers.

What is measured: the seconds of the kernel call alone (the ``kernel_<name>(...)`` call in ``main`` of
tests/programs/polybench/<name>.c, wrapped in clock_gettime(CLOCK_MONOTONIC) by a copy of the program that prints
``autotune-kernel-seconds <s>``; the sweep reads it through Kernel.timer), at OMP_NUM_THREADS=--threads.

For each kernel (sizes below, chosen so that the kernel runs tens of milliseconds):
1. the autotuner's search (affine/autotune.py) with --budget timed runs, on a LocalCluster of --workers workers:
   per SCoP (tune_scops: successive halving for one SCoP at a time, the budget split between the program's
   SCoPs, its kernel and its initialization), or with --search whole-file one successive halving of the whole
   file's flags (what the autotuner did before it tuned per SCoP);
2. random sampling with the same budget (budget // 3 variants, 3 repetitions each, the default among them);
3. a final sweep of the default schedule, the successive-halving choice and the random-sampling choice with
   --final-reps repetitions each; ratio = default median / choice median (> 1: the choice is faster).
Both searches check every variant's output against the untransformed program; the tuning database is not written.

Throughput: one sweep of a fixed space (--throughput-variants variants of gemm and jacobi_2d) on 1 and on 2
workers: wall seconds (cluster start included) and variants per minute.

Usage: python benchmarks/autotune.py [--kernels gemm,jacobi_2d] [--budget 24] [--threads 2] [--workers 2]
                                     [--search per-scop|whole-file] [--final-reps 7] [--json out.json]
                                     [--no-throughput]
The machine is shared and noisy: compare ratios from one run, with the noise column in view.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from pathlib import Path

from polygeist_py.affine import autotune as at
from polygeist_py.affine import sweep as sw

ROOT = Path(__file__).resolve().parent.parent
POLYBENCH = ROOT / "tests" / "programs" / "polybench"
SIZES = {
    "gemm": {"NI": 320, "NJ": 340, "NK": 360},
    "jacobi_2d": {"TSTEPS": 40, "N": 500},
    "syrk": {"N": 320, "M": 280},
    "mvt": {"N": 3000},
    "seidel_2d": {"TSTEPS": 10, "N": 400},
    "atax": {"M": 2000, "N": 2400},
}
TIMER = r"autotune-kernel-seconds ([0-9.eE+-]+)"
KERNEL_CALL = re.compile(r"^(\s*)(kernel_\w+\s*\(.*\)\s*;)\s*$", re.M)
TIMER_C = r"""
#include <time.h>
static struct timespec autotune_t0;
static void autotune_timer_start(void) { clock_gettime(CLOCK_MONOTONIC, &autotune_t0); }
static void autotune_timer_stop(void)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("autotune-kernel-seconds %.9f\n",
         (double)(t1.tv_sec - autotune_t0.tv_sec) + 1e-9 * (t1.tv_nsec - autotune_t0.tv_nsec));
}
"""


def instrument(name: str, workdir: Path) -> sw.Kernel:
    """A copy of the kernel's program that times its kernel call, as a sweep Kernel with its sizes."""
    source = (POLYBENCH / f"{name}.c").read_text()
    if len(KERNEL_CALL.findall(source)) != 1:
        raise ValueError(f"{name}: expected one kernel_*(...); call")
    head, rest = source.split("\n", 1)
    rest = KERNEL_CALL.sub(r"\1autotune_timer_start(); \2 autotune_timer_stop();", rest)
    decls = " static void autotune_timer_start(void); static void autotune_timer_stop(void);"
    path = workdir / f"{name}.c"
    path.write_text(head + decls + "\n" + rest + TIMER_C)
    return sw.Kernel(str(path), defines=SIZES.get(name, {}), name=name, timer=TIMER)


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _fmt(x, spec: str) -> str:
    """`x` formatted, or "n/a" (a failed variant, a noise of one repetition)."""
    return "n/a" if x is None else format(x, spec)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="gemm,jacobi_2d,syrk")
    ap.add_argument("--budget", type=int, default=24)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--search", choices=["per-scop", "whole-file"], default="per-scop",
                    help="the autotuner's per-SCoP search, or successive halving over the whole file's flags")
    ap.add_argument("--final-reps", type=int, default=7)
    ap.add_argument("--throughput-variants", type=int, default=6)
    ap.add_argument("--no-throughput", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    cfg = sw.SweepConfig(threads=a.threads, run_timeout=120)
    records = []
    client, _ = sw.make_client(None, a.workers)
    try:
        with tempfile.TemporaryDirectory() as d:
            for name in a.kernels.split(","):
                k = instrument(name, Path(d))
                search = at.tune_scops if a.search == "per-scop" else at.successive_halving
                sh = search(k, None, a.budget, config=cfg, scheduler=client, progress=False)
                rnd = at.random_search(k, None, a.budget, reps=3, config=cfg, scheduler=client, progress=False)
                final = [sw.Variant()] + [v for v in dict.fromkeys([sh.best, rnd.best]) if v and v != sw.Variant()]
                res = sw.sweep([k], final, config=sw.SweepConfig(threads=a.threads, reps=a.final_reps,
                                                                  run_timeout=120),
                               scheduler=client, progress=False)
                med = {r["variant"]: r for r in res.rows}
                d0 = med[sw.Variant().key]

                def ratio(v):
                    r = med.get((v or sw.Variant()).key)
                    return d0["median_s"] / r["median_s"] if r and r["median_s"] and d0["median_s"] else None
                rec = {"kernel": name, "sizes": SIZES.get(name, {}), "default_s": d0["median_s"],
                       "default_noise": d0["noise"], "sh_variant": sh.best.key if sh.best else None,
                       "sh_ratio": ratio(sh.best), "sh_variants_seen": sh.evaluated, "sh_runs": sh.runs,
                       "sh_scops": {n: v.key for n, v in sh.scops.items()}, "search": a.search,
                       "random_variant": rnd.best.key if rnd.best else None, "random_ratio": ratio(rnd.best),
                       "random_variants_seen": rnd.evaluated, "random_runs": rnd.runs}
                records.append(rec)
                print(f"{name:10s} default {_fmt(rec['default_s'], '.4f')} s "
                      f"(noise {_fmt(rec['default_noise'], '.2f')})  "
                      f"SH {_fmt(rec['sh_ratio'], '.2f')}x [{rec['sh_variant']}; {sh.evaluated} variants]  "
                      f"random {_fmt(rec['random_ratio'], '.2f')}x [{rec['random_variant']}; {rnd.evaluated} variants]",
                      flush=True)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    print(f"geomean speedup over the default schedule at {a.threads} threads, budget {a.budget} timed runs: "
          f"successive halving ({a.search}) {_fmt(geomean([r['sh_ratio'] for r in records]), '.3f')}x, "
          f"random sampling {_fmt(geomean([r['random_ratio'] for r in records]), '.3f')}x")
    out = {"budget": a.budget, "threads": a.threads, "search": a.search, "kernels": records}
    if not a.no_throughput:
        space = at.default_space()[:a.throughput_variants]
        with tempfile.TemporaryDirectory() as d:
            ks = [instrument(n, Path(d)) for n in ("gemm", "jacobi_2d")]
            tp = {}
            for workers in (1, 2):
                t0 = time.perf_counter()
                sw.sweep(ks, space, config=sw.SweepConfig(threads=1, reps=3), n_workers=workers, progress=False)
                tp[workers] = time.perf_counter() - t0
                n = len(ks) * len(space)
                print(f"sweep of {n} variants on {workers} worker(s): {tp[workers]:.1f} s "
                      f"({60 * n / tp[workers]:.1f} variants/min)", flush=True)
        out["throughput_s"] = tp
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
