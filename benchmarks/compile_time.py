"""Compile time of pgcc against gcc (issue 23): wall and CPU time (the compiler and its subprocesses), medians
of several runs, and ratios.

    python benchmarks/compile_time.py [--runs 5] [--pgcc PGCC] [--kernels gemm,atax,...] [--cuda] [--cache]

Inputs: an empty `int main(void){return 0;}`, PolyBench-style kernels with their harness
(tests/programs/polybench, -O3, linked), with --cuda the CUDA examples with --cpuify, with --cache also the
kernels compiled again as cache hits (PGCC_CACHE_DIR in a fresh temporary directory; the first run fills it).
gcc runs as `gcc -O3 -lm`. CPU time counts the children of the measured process (resource.RUSAGE_CHILDREN),
so opt, llc and the linker are included. The machine is shared: compare ratios from one run of the script.

pgcc runs as an installed pgcc does: with its modules byte-compiled (pip writes the .pyc files at install time).
An environment with PYTHONDONTWRITEBYTECODE set would otherwise recompile some 90 modules from source on every
run (0.1 s); the .pyc files go to a temporary PYTHONPYCACHEPREFIX, filled by one untimed run first.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ("gemm", "atax", "jacobi_2d", "lu", "correlation", "fdtd_2d", "syrk", "trisolv")


def measure(cmd: list[str], env=None, cwd=None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run of `cmd`; raises on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_of(cmd, runs, env=None, cwd=None) -> tuple[float, float]:
    walls, cpus = zip(*(measure(cmd, env, cwd) for _ in range(runs)))
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pgcc", default=str(Path(sys.executable).parent / "pgcc"))
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--cuda", action="store_true", help="also the CUDA examples with --cpuify")
    ap.add_argument("--cache", action="store_true", help="also the kernels as compile-cache hits")
    a = ap.parse_args()
    pgcc = a.pgcc.split()
    env = {k: v for k, v in os.environ.items() if k not in ("PGCC_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pyc")
        empty = Path(tmp) / "empty.c"
        empty.write_text("int main(void){return 0;}\n")
        exe = str(Path(tmp) / "a.out")
        measure(pgcc + ["-O3", str(ROOT / "tests/programs/polybench/gemm.c"), "-o", exe, "-lm"], env, tmp)  # .pyc
        rows.append(("empty -O3", median_of(pgcc + ["-O3", str(empty), "-o", exe], a.runs, env, tmp),
                     median_of(["gcc", "-O3", str(empty), "-o", exe], a.runs, env, tmp)))
        bench = ROOT / "tests/programs/polybench"
        for k in a.kernels.split(","):
            src = str(bench / f"{k}.c")
            rows.append((f"{k} -O3", median_of(pgcc + ["-O3", src, "-o", exe, "-lm"], a.runs, env, bench),
                         median_of(["gcc", "-O3", src, "-o", exe, "-lm"], a.runs, env, bench)))
        if a.cache:
            cenv = dict(env, PGCC_CACHE_DIR=str(Path(tmp) / "cache"))
            for k in a.kernels.split(","):
                src = str(bench / f"{k}.c")
                measure(pgcc + ["-O3", "-c", src, "-o", str(Path(tmp) / "k.o")], cenv, bench)  # fills the cache
                rows.append((f"{k} -O3 -c (cache hit)",
                             median_of(pgcc + ["-O3", "-c", src, "-o", str(Path(tmp) / "k.o")], a.runs, cenv,
                                       bench),
                             median_of(["gcc", "-O3", "-c", src, "-o", str(Path(tmp) / "k.o")], a.runs, env,
                                       bench)))
        if a.cuda:
            for src in sorted((ROOT / "examples/cuda").glob("*.cu")):
                rows.append((f"{src.stem}.cu --cpuify",
                             median_of(pgcc + ["--cpuify", str(src), "-o", exe], max(1, a.runs // 2), env), None))
    print(f"{'input':32} {'pgcc wall':>10} {'pgcc CPU':>9} {'gcc wall':>9} {'gcc CPU':>8} {'CPU ratio':>9}")
    ratios = []
    for name, (pw, pc), ref in rows:
        if ref is None:
            print(f"{name:32} {pw:10.3f} {pc:9.3f}")
            continue
        gw, gc = ref
        ratio = pc / gc if gc > 0 else float("inf")
        if name.endswith("-O3") and not name.startswith("empty"):
            ratios.append(ratio)
        print(f"{name:32} {pw:10.3f} {pc:9.3f} {gw:9.3f} {gc:8.3f} {ratio:8.1f}x")
    if ratios:
        print(f"PolyBench-style kernels at -O3: median CPU ratio {statistics.median(ratios):.1f}x, "
              f"max {max(ratios):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
