"""Time the CUDA examples compiled by ``pgcc --cpuify -O3 -march=native`` against hand-written OpenMP C versions.

What is compared: for each program of examples/cuda/ listed in PROGRAMS (every synchronizing example -- shared
memory, ``__syncthreads()``, atomics -- and a few heavy barrier-free ones), the CUDA program built with
``pgcc <name>.cu --cpuify -O3`` and benchmarks/openmp/<name>.c built with ``gcc -O3 -march=native -fopenmp
-ffp-contract=off`` (pgcc generates code for the native CPU too; contraction off on both sides so the floats,
and hence the outputs, are identical). The OpenMP versions are written the way Rodinia's OpenMP codes are: the
same algorithm, ``#pragma omp parallel for`` over its natural outer loop (rows, blocks, segments, the blocks of a
wavefront diagonal), privatized histograms with atomic merges.

What is measured: the kernel region only. Each CUDA program times its launches with ``cudaEventRecord`` /
``cudaEventElapsedTime`` (pgcc: host wall clock) and prints ``... <t> ms`` on stderr; each OpenMP version times
the same part of the algorithm with ``omp_get_wtime`` and prints the same line. Input generation, the copies to
and from the "device" and the output are not timed. Problem sizes (ARGS below) make each timed region take
roughly 0.1-0.3 s on a 2-core machine; block_reduce, prefix_scan and warp_reduce take a second ``repeat``
argument that re-runs their (idempotent) launches, because their largest inputs are only a few ms of work.
nn_layer has a fixed size (a ~2 ms training step) and is reported as it is.

Runtime: by default the gcc object is linked with LLVM's libomp (it implements gcc's GOMP_* entry points), the
runtime pgcc's code uses, so the comparison is about the generated code; ``--runtime gomp`` uses gcc's libgomp
(whose spin-waiting suffers more when other work shares the cores).

How: both binaries run with OMP_NUM_THREADS=2 (``--threads``), interleaved (alternating which goes first)
``--reps`` times; the reported time is the median, and ratio = OpenMP time / pgcc time (> 1: pgcc is faster).
Before timing, the stdout of both is compared (``yes`` identical, ``close`` every number within one unit of its
last printed digit, otherwise ``NO`` and the program is not timed).

Usage: python benchmarks/cpuify_vs_openmp.py [--reps 7] [--programs matmul_shared,nw_wavefront] [--threads 2]
                                              [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from polybench_vs_gcc import compare_outputs, fmt, geomean, pgcc_command  # noqa: E402

EXAMPLES = HERE.parent / "examples" / "cuda"
OPENMP = HERE / "openmp"

# program -> (arguments, synchronizes)
PROGRAMS = {
    "matmul_shared": (["1536", "1536", "1536"], True),
    "block_reduce": (["16000000", "20"], True),
    "prefix_scan": (["262144", "100"], True),
    "hotspot_pyramid": (["6000"], True),
    "nw_wavefront": (["512"], True),
    "nn_layer": ([], True),
    "histogram_atomic": (["100000000"], True),
    "warp_reduce": (["16000000", "5"], True),
    "matmul": (["1000", "1000", "1000"], False),
    "blackscholes": (["12000000"], False),
}
GCC_FLAGS = ["-O3", "-march=native", "-fopenmp", "-ffp-contract=off"]
TIME = re.compile(r"([0-9]+(?:\.[0-9]*)?) ms")


def compile_cmd(cmd: list[str], what: str) -> None:
    """Run a compiler command; raise RuntimeError with its diagnostics on failure."""
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{what} failed: {(r.stderr or r.stdout).strip()[:500]}")


def build(name: str, workdir: Path, runtime: str) -> dict[str, Path]:
    """Build the CUDA example with pgcc and its OpenMP version with gcc; returns {'pgcc': exe, 'openmp': exe}.
    runtime 'omp': the gcc object is linked with LLVM's libomp (which implements gcc's GOMP_* entry points),
    the runtime pgcc's code uses; 'gomp': with gcc's own libgomp."""
    exes = {"pgcc": workdir / f"{name}.pgcc", "openmp": workdir / f"{name}.omp"}
    compile_cmd([*pgcc_command(), EXAMPLES / f"{name}.cu", "--cpuify", "-O3", "-march=native", "-o", exes["pgcc"]],
                "pgcc")
    if runtime == "gomp":
        compile_cmd(["gcc", *GCC_FLAGS, OPENMP / f"{name}.c", "-o", exes["openmp"], "-lm"], "gcc")
    else:
        obj = workdir / f"{name}.omp.o"
        compile_cmd(["gcc", *GCC_FLAGS, "-c", OPENMP / f"{name}.c", "-o", obj], "gcc")
        lib = libomp_dir()
        compile_cmd(["gcc", obj, "-o", exes["openmp"], f"-L{lib}", f"-Wl,-rpath,{lib}", "-lomp", "-lm"], "gcc (link)")
    return exes


def libomp_dir() -> str:
    """Directory of the libomp.so pgcc links (cmeel-libomp), found by the interpreter running pgcc."""
    code = "from polygeist_py.toolchain import libomp_dir; print(libomp_dir())"
    exe = pgcc_command()[0]
    python = sys.executable
    if exe.endswith("pgcc"):
        python = os.path.join(os.path.dirname(exe), "python")
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def run(exe: Path, args: list[str], threads: int, timeout: float) -> tuple[float, str]:
    """Run once; returns (seconds of the timed region, from the first '<t> ms' on stderr; stdout)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    r = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{exe.name} exited with status {r.returncode}: {r.stderr.strip()[:200]}")
    m = TIME.search(r.stderr)
    if not m:
        raise RuntimeError(f"{exe.name} printed no '<t> ms' timing on stderr")
    return float(m.group(1)) / 1e3, r.stdout


def bench(name: str, reps: int, threads: int, workdir: Path, timeout: float, runtime: str = "omp") -> dict:
    """Build, check and time one program; returns its record (with 'error' set on failure)."""
    args, sync = PROGRAMS[name]
    rec = {"program": name, "args": args, "sync": sync, "pgcc_times": [], "openmp_times": [],
           "same_output": None, "error": None}
    try:
        exes = build(name, workdir, runtime)
        outs = {which: run(exe, args, threads, timeout)[1] for which, exe in exes.items()}
        rec["same_output"] = compare_outputs(outs["openmp"], outs["pgcc"])
        if rec["same_output"] == "NO":
            raise RuntimeError("the two programs print different results")
        for rep in range(reps):
            for which in (("pgcc", "openmp") if rep % 2 == 0 else ("openmp", "pgcc")):
                rec[f"{which}_times"].append(run(exes[which], args, threads, timeout)[0])
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        rec["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
    for which in ("pgcc", "openmp"):
        times = rec[f"{which}_times"]
        rec[f"{which}_s"] = statistics.median(times) if len(times) == reps else None
    rec["ratio"] = rec["openmp_s"] / rec["pgcc_s"] if rec["pgcc_s"] and rec["openmp_s"] is not None else None
    return rec


def load_average() -> str:
    """The 1-minute load average (other work on the machine skews OpenMP timings, libgomp's most)."""
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "?"


def report(records: list[dict], threads: int, loads: tuple[str, str] = ("?", "?")) -> str:
    """Markdown table, then the geometric mean of the ratios (all programs and synchronizing ones only)."""
    rows = ["| program | args | sync | OpenMP s | pgcc s | OpenMP/pgcc | same output |",
            "|---|---|---|---:|---:|---:|---|"]
    for r in records:
        same = r["same_output"] if not r["error"] else f"error: {r['error']}"
        rows.append(f"| {r['program']} | {' '.join(r['args']) or '-'} | {'yes' if r['sync'] else 'no'} | "
                    f"{fmt(r['openmp_s'], '.4f')} | {fmt(r['pgcc_s'], '.4f')} | {fmt(r['ratio'], '.2f')} | {same} |")
    ratios = [r["ratio"] for r in records if r["ratio"]]
    sync = [r["ratio"] for r in records if r["ratio"] and r["sync"]]
    rows += ["", f"OMP_NUM_THREADS={threads} on {os.cpu_count()} CPUs, load average {loads[0]} before and "
             f"{loads[1]} after the runs; ratio > 1: pgcc --cpuify is faster",
             f"geometric mean over {len(ratios)} programs: {fmt(geomean(ratios), '.3f')}",
             f"geometric mean over the {len(sync)} synchronizing programs: {fmt(geomean(sync), '.3f')}"]
    return "\n".join(rows)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=7, help="timed runs of each binary (median is reported)")
    p.add_argument("--programs", help=f"comma-separated subset of {', '.join(PROGRAMS)}")
    p.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS for both binaries")
    p.add_argument("--runtime", choices=("omp", "gomp"), default="omp",
                   help="OpenMP runtime of the gcc build: LLVM's libomp (the one pgcc uses) or gcc's libgomp")
    p.add_argument("--json", help="also write the results to this JSON file")
    p.add_argument("--timeout", type=float, default=300, help="seconds allowed for one run")
    args = p.parse_args(argv)
    if args.reps < 1 or args.threads < 1:
        p.error("--reps and --threads must be >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = args.programs.split(",") if args.programs else list(PROGRAMS)
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        sys.exit(f"unknown program(s): {', '.join(unknown)} (available: {', '.join(PROGRAMS)})")
    records = []
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="pgomp-") as tmp:
        for name in names:
            rec = bench(name, args.reps, args.threads, Path(tmp), args.timeout, args.runtime)
            records.append(rec)
            print(f"{name}: OpenMP {fmt(rec['openmp_s'], '.4f')} s, pgcc {fmt(rec['pgcc_s'], '.4f')} s, "
                  f"ratio {fmt(rec['ratio'], '.2f')}, same output {rec['same_output']}"
                  + (f", error: {rec['error']}" if rec["error"] else ""), file=sys.stderr, flush=True)
    loads = (load_before, load_average())
    print(report(records, args.threads, loads))
    print(f"OpenMP versions: gcc {' '.join(GCC_FLAGS)}, runtime {'libomp' if args.runtime == 'omp' else 'libgomp'}")
    if args.json:
        ratios = [r["ratio"] for r in records if r["ratio"]]
        with open(args.json, "w") as f:
            json.dump({"threads": args.threads, "reps": args.reps, "load_average": loads, "runtime": args.runtime, "ratio": "openmp_s / pgcc_s",
                       "geomean_ratio": geomean(ratios), "programs": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
