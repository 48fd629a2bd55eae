"""Compile time of pgcc against gcc (issue 23): wall and CPU time (the compiler and its subprocesses), medians
of several runs, and ratios.

    python benchmarks/compile_time.py [--runs 5] [--pgcc PGCC] [--kernels gemm,atax,...] [--cuda] [--cache]
                                      [--baseline PGCC] [--file "PATH FLAG..." [--file ...]] [--file-runs N]

Inputs: an empty `int main(void){return 0;}`, PolyBench-style kernels with their harness
(tests/programs/polybench, -O3, linked), with --cuda the CUDA examples with --cpuify, with --cache also the
kernels compiled again as cache hits (PGCC_CACHE_DIR in a fresh temporary directory; the first run fills it).
gcc runs as `gcc -O3 -lm`. CPU time counts the children of the measured process (resource.RUSAGE_CHILDREN),
so opt, llc and the linker are included. The machine is shared: compare ratios from one run of the script.

With --file, also large single files (sqlite3.c, Lua's lvm.c...) compiled with `-c` and the given flags by
both compilers (their rows are not in the kernels' median), --file-runs times each (default 1: such a file takes
a minute of CPU time).

With --baseline (another pgcc command, e.g. `python /path/to/old/checkout/run_pgcc.py`), that pgcc is measured
too, its runs alternating with the measured pgcc's and gcc's, and the table adds its CPU time and the speed-up.

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


def medians_alternating(cmds: list, runs: int, env=None, cwd=None, envs=None) -> list:
    """(median wall, median CPU) of each command of `cmds` (None entries give None), their runs interleaved
    round-robin so that a change of the machine's load affects them alike; `envs`: one environment per command
    (default `env` for all)."""
    envs = envs or [env] * len(cmds)
    samples = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            if cmd is not None:
                samples[i].append(measure(cmd, envs[i], cwd))
    return [(statistics.median(w for w, _ in s), statistics.median(c for _, c in s)) if s else None
            for s in samples]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pgcc", default=str(Path(sys.executable).parent / "pgcc"))
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--cuda", action="store_true", help="also the CUDA examples with --cpuify")
    ap.add_argument("--cache", action="store_true", help="also the kernels as compile-cache hits")
    ap.add_argument("--baseline", default=None, help="another pgcc command to compare with (alternating runs)")
    ap.add_argument("--file", action="append", default=[],
                    help='a large file and its flags, compiled with -c: "PATH FLAG..." (repeatable)')
    ap.add_argument("--file-runs", type=int, default=1)
    a = ap.parse_args()
    pgcc = a.pgcc.split()
    base = a.baseline.split() if a.baseline else None
    env = {k: v for k, v in os.environ.items() if k not in ("PGCC_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    rows = []  # (name, pgcc (wall, cpu), gcc (wall, cpu) or None, baseline (wall, cpu) or None)
    with tempfile.TemporaryDirectory() as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pyc")
        empty = Path(tmp) / "empty.c"
        empty.write_text("int main(void){return 0;}\n")
        exe = str(Path(tmp) / "a.out")
        for p in (pgcc, base):  # writes the .pyc files
            if p:
                measure(p + ["-O3", str(ROOT / "tests/programs/polybench/gemm.c"), "-o", exe, "-lm"], env, tmp)

        def row(name, args, gcc_args, runs=a.runs, cwd=None, penv=None):
            got = medians_alternating([pgcc + args, gcc_args, base + args if base else None], runs, cwd=cwd,
                                      envs=[penv or env, env, penv or env])
            rows.append((name, got[0], got[1], got[2]))

        row("empty -O3", ["-O3", str(empty), "-o", exe], ["gcc", "-O3", str(empty), "-o", exe], cwd=tmp)
        bench = ROOT / "tests/programs/polybench"
        for k in a.kernels.split(","):
            src = str(bench / f"{k}.c")
            row(f"{k} -O3", ["-O3", src, "-o", exe, "-lm"], ["gcc", "-O3", src, "-o", exe, "-lm"], cwd=bench)
        if a.cache:
            cenv = dict(env, PGCC_CACHE_DIR=str(Path(tmp) / "cache"))
            obj = str(Path(tmp) / "k.o")
            for k in a.kernels.split(","):
                src = str(bench / f"{k}.c")
                for p in (pgcc, base):
                    if p:  # fills the cache (each pgcc has its own entries: the key holds pgcc's version)
                        measure(p + ["-O3", "-c", src, "-o", obj], cenv, bench)
                row(f"{k} -O3 -c (cache hit)", ["-O3", "-c", src, "-o", obj], ["gcc", "-O3", "-c", src, "-o", obj],
                    cwd=bench, penv=cenv)
        for spec in a.file:
            src, *flags = spec.split()
            obj = str(Path(tmp) / "large.o")
            row(f"{Path(src).name} {' '.join(f for f in flags if f.startswith('-O'))} -c",
                [*flags, "-c", src, "-o", obj], ["gcc", *flags, "-c", src, "-o", obj], runs=a.file_runs,
                cwd=str(Path(src).parent))
        if a.cuda:
            for src in sorted((ROOT / "examples/cuda").glob("*.cu")):
                row(f"{src.stem}.cu --cpuify", ["--cpuify", str(src), "-o", exe], None, runs=max(1, a.runs // 2))
    head = f"{'input':32} {'pgcc wall':>10} {'pgcc CPU':>9} {'gcc wall':>9} {'gcc CPU':>8} {'CPU ratio':>9}"
    print(head + (f" {'base CPU':>9} {'speed-up':>8}" if base else ""))
    ratios, cuda = [], []
    for name, (pw, pc), ref, old in rows:
        line = f"{name:32} {pw:10.3f} {pc:9.3f}"
        if ref is not None:
            gw, gc = ref
            ratio = pc / gc if gc > 0 else float("inf")
            if name.endswith("-O3") and not name.startswith("empty"):
                ratios.append(ratio)
            line += f" {gw:9.3f} {gc:8.3f} {ratio:8.1f}x"
        else:
            cuda.append(pw)
            line += " " * 38
        if old is not None:
            line += f" {old[1]:9.3f} {old[1] / pc if pc > 0 else 0:7.2f}x"
        print(line)
    if ratios:
        print(f"PolyBench-style kernels at -O3: median CPU ratio {statistics.median(ratios):.1f}x, "
              f"max {max(ratios):.1f}x")
    if cuda:
        print(f"CUDA examples with --cpuify: median wall {statistics.median(cuda):.2f} s, max {max(cuda):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
