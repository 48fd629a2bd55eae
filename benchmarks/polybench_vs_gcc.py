"""Time the 30 PolyBench-style kernels compiled by ``pgcc -O3 -march=native`` against ``gcc -O3 -march=native``.

What is measured: the wall-clock time (seconds, ``CLOCK_MONOTONIC``) of the kernel call alone, i.e. of the
``kernel_<name>(...)`` call in ``main`` of each tests/programs/polybench/<name>.c -- not the input fill and
not the dump of the result arrays (the programs always print every element to stderr, which would dominate
for the kernels whose work is linear in the output size).

How: every program is copied to a temporary directory with that one call wrapped in ``pgb_timer_start()`` /
``pgb_timer_stop()``; these two functions live in a tiny timer object compiled by gcc and linked into both
binaries, and ``pgb_timer_stop`` prints ``pgb-kernel-seconds <s>`` to stdout.  Both binaries are built with
the problem sizes from the file's line 1 (``/* large: -D... */``; ``--size small`` keeps the file's small
defaults).  The two binaries run interleaved (alternating which one goes first) ``--reps`` times with
stderr sent to /dev/null; the reported time is the median of the reps, and
ratio = pgcc median / gcc median (> 1: pgcc is slower; the speedup over gcc is 1/ratio).  pgcc builds with
``-O3`` plus ``--pgcc-flags`` (``-O3`` turns the polyhedral stage on; ``--no-polyhedral`` turns it off,
``--no-parallel`` keeps its schedules sequential) and runs with OMP_NUM_THREADS=``--threads`` (default 1);
gcc's binary is sequential.  Issue 4's comparison is ``--threads 2`` (parallel) and ``--pgcc-flags
--no-parallel`` (sequential-only).

Output check: in the first rep both binaries' stdout and stderr are captured and compared.  "same output"
is ``yes`` when they are byte-identical, ``close`` when every printed number agrees up to one unit in its
last printed digit or a relative 1e-6 (gcc -march=native contracts a*b+c into FMAs, pgcc does not, so the
%0.2lf dump can round differently), integers exactly, and ``NO`` otherwise.

Harness layout (``--layout harness``): the kernels of tests/programs/pbharness, each built as two translation
units (``bench.c`` + ``<name>.c``, the way a PolyBench/C 4.2.1 program is built with ``utilities/polybench.c``)
with ``-DLARGE_DATASET`` (``--size small``: ``-DSMALL_DATASET``) and ``-DBENCH_TIME``; the time is the harness's
own (gettimeofday around the kernel call, printed as one ``%0.6f`` line).  The output check builds a second
pair with ``-DBENCH_DUMP_ARRAYS`` (every result array dumped to stderr) and runs it once.

Usage: python benchmarks/polybench_vs_gcc.py [--reps 5] [--kernels gemm,lu] [--size large|small]
                                              [--threads N] [--pgcc-flags="--no-parallel"] [--json out.json]
                                              [--layout standalone|harness]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from decimal import Decimal, InvalidOperation
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent.parent / "tests" / "programs" / "polybench"
HARNESS_DIR = KERNEL_DIR.parent / "pbharness"
HARNESS_TIME = re.compile(r"^\d+\.\d{6}$")
LAYOUT = "standalone"
MARKER = "pgb-kernel-seconds"
SLOW = 1.25
PGCC_FLAGS: list[str] = []
THREADS = "1"

TIMER_C = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
static struct timespec t0;
void pgb_timer_start(void) { clock_gettime(CLOCK_MONOTONIC, &t0); }
void pgb_timer_stop(void)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%s %.9f\n", "pgb-kernel-seconds", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
}
"""
TIMER_DECLS = " void pgb_timer_start(void); void pgb_timer_stop(void);"
KERNEL_CALL = re.compile(r"^(\s*)(kernel_\w+\s*\(.*\)\s*;)\s*$", re.M)


def pgcc_command() -> list[str]:
    """The pgcc next to this Python interpreter, else ``python -m polygeist_py.driver``."""
    exe = os.path.join(os.path.dirname(sys.executable), "pgcc")
    return [exe] if os.access(exe, os.X_OK) else [sys.executable, "-m", "polygeist_py.driver"]


def size_flags(source: str, size: str) -> list[str]:
    """The -D flags of line 1 (``/* large: -DN=... */``) for size 'large', none for 'small'."""
    if size == "small":
        return []
    m = re.match(r"/\*\s*large:\s*(.*?)\s*\*/", source.splitlines()[0])
    if not m:
        raise ValueError("line 1 is not a '/* large: -D... */' comment")
    return m.group(1).split()


def instrument(source: str) -> str:
    """The program with its single ``kernel_*(...);`` call wrapped in the timer calls (line numbers kept)."""
    calls = KERNEL_CALL.findall(source)
    if len(calls) != 1:
        raise ValueError(f"expected one kernel_*(...); call statement, found {len(calls)}")
    first, rest = source.split("\n", 1)
    rest = KERNEL_CALL.sub(r"\1pgb_timer_start(); \2 pgb_timer_stop();", rest)
    return first + TIMER_DECLS + "\n" + rest


def compile_cmd(cmd: list[str], what: str) -> None:
    """Run a compiler command; raise RuntimeError with its diagnostics on failure."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{what} failed: {(r.stderr or r.stdout).strip()[:500]}")


def build(name: str, flags: list[str], workdir: Path, timer_o: Path) -> dict[str, Path]:
    """Build the instrumented program with gcc and pgcc; returns {'gcc': exe, 'pgcc': exe}."""
    src = workdir / f"{name}.c"
    src.write_text(instrument((KERNEL_DIR / f"{name}.c").read_text()))
    exes = {"gcc": workdir / f"{name}.gcc", "pgcc": workdir / f"{name}.pgcc"}
    compile_cmd(["gcc", "-O3", "-march=native", *flags, str(src), str(timer_o), "-o", str(exes["gcc"]), "-lm"],
                "gcc")
    compile_cmd([*pgcc_command(), "-O3", "-march=native", *PGCC_FLAGS, *flags, str(src), str(timer_o), "-o",
                 str(exes["pgcc"])], "pgcc")
    return exes


def build_harness(name: str, size: str, workdir: Path) -> dict[str, Path]:
    """Build bench.c + <name>.c of the harness layout with gcc and pgcc, timed ('gcc', 'pgcc') and dumping
    ('gcc.dump', 'pgcc.dump') variants; returns the executables by those keys."""
    common = ["-I", str(HARNESS_DIR), f"-D{size.upper()}_DATASET", str(HARNESS_DIR / "bench.c"),
              str(HARNESS_DIR / f"{name}.c")]
    exes = {}
    for variant, flag in (("", "-DBENCH_TIME"), (".dump", "-DBENCH_DUMP_ARRAYS")):
        exes["gcc" + variant] = workdir / f"{name}{variant}.gcc"
        exes["pgcc" + variant] = workdir / f"{name}{variant}.pgcc"
        compile_cmd(["gcc", "-O3", "-march=native", flag, *common, "-o", str(exes["gcc" + variant]), "-lm"], "gcc")
        compile_cmd([*pgcc_command(), "-O3", "-march=native", *PGCC_FLAGS, flag, *common, "-o",
                     str(exes["pgcc" + variant])], "pgcc")
    return exes


def run(exe: Path, capture: bool, timeout: float) -> tuple[float, str, str]:
    """Run once; returns (kernel seconds, stdout without the timer line, stderr or '' when not captured).
    The timer line is ``pgb-kernel-seconds <s>`` (standalone layout) or the harness's ``%0.6f`` line; an
    executable built for dumping (``*.dump.*``) prints none and gets 0.0."""
    env = dict(os.environ, OMP_NUM_THREADS=THREADS if exe.suffix == ".pgcc" else "1")
    r = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE if capture else subprocess.DEVNULL,
                       text=True, env=env, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{exe.name} exited with status {r.returncode}")
    if ".dump" in exe.suffixes:
        return 0.0, r.stdout, r.stderr or ""
    lines = r.stdout.splitlines(keepends=True)
    is_timer = (lambda l: HARNESS_TIME.match(l.strip())) if LAYOUT == "harness" else (lambda l: l.startswith(MARKER))
    timer = [l for l in lines if is_timer(l)]
    if len(timer) != 1:
        raise RuntimeError(f"{exe.name} did not print one timer line")
    out = "".join(l for l in lines if not is_timer(l))
    return float(timer[0].split()[-1]), out, r.stderr or ""


def numbers_close(a: str, b: str, rtol: float = 1e-6) -> bool:
    """Two printed numbers agree: integers exactly, reals within one unit of the last printed digit or rtol."""
    if a == b:
        return True
    if not re.search(r"[.eEnN]", a + b):
        return False  # both integers ("%d") and different
    try:
        x, y = float(a), float(b)
        unit = float(10 ** Decimal(a).as_tuple().exponent) if re.search(r"[.eE]", a) else 0.0
    except (ValueError, TypeError, InvalidOperation):
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return abs(x - y) <= max(unit * (1 + 1e-9), rtol * max(abs(x), abs(y)))


def compare_outputs(ref: str, got: str) -> str:
    """'yes' (identical), 'close' (every number within tolerance, see numbers_close) or 'NO'."""
    if ref == got:
        return "yes"
    a, b = ref.split(), got.split()
    if len(a) == len(b) and all(numbers_close(x, y) for x, y in zip(a, b)):
        return "close"
    return "NO"


def bench_kernel(name: str, size: str, reps: int, workdir: Path, timer_o: Path, timeout: float) -> dict:
    """Build, check and time one kernel; returns its result record (with 'error' set on failure)."""
    rec = {"kernel": name, "flags": [], "gcc_times": [], "pgcc_times": [], "same_output": None, "error": None}
    try:
        if LAYOUT == "harness":
            rec["flags"] = [f"-D{size.upper()}_DATASET"]
            exes = build_harness(name, size, workdir)
        else:
            rec["flags"] = size_flags((KERNEL_DIR / f"{name}.c").read_text(), size)
            exes = build(name, rec["flags"], workdir, timer_o)
        outputs = {}
        for rep in range(reps):
            order = ("gcc", "pgcc") if rep % 2 == 0 else ("pgcc", "gcc")
            for which in order:
                t, out, err = run(exes[which], capture=(rep == 0), timeout=timeout)
                rec[f"{which}_times"].append(t)
                if rep == 0:
                    outputs[which] = out + err
        for which in ("gcc", "pgcc"):
            if which + ".dump" in exes:
                outputs[which] = run(exes[which + ".dump"], capture=True, timeout=timeout)[2]
        rec["same_output"] = compare_outputs(outputs["gcc"], outputs["pgcc"])
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        rec["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
    for which in ("gcc", "pgcc"):
        times = rec[f"{which}_times"]
        rec[f"{which}_s"] = statistics.median(times) if len(times) == reps else None
    rec["ratio"] = rec["pgcc_s"] / rec["gcc_s"] if rec["gcc_s"] and rec["pgcc_s"] is not None else None
    return rec


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def report(records: list[dict]) -> str:
    """Markdown table, geometric mean of the ratios and the kernels slower than SLOW x gcc."""
    rows = ["| kernel | gcc s | pgcc s | ratio | same output |", "|---|---:|---:|---:|---|"]
    for r in records:
        same = r["same_output"] or f"error: {r['error']}"
        rows.append(f"| {r['kernel']} | {fmt(r['gcc_s'], '.4g')} | {fmt(r['pgcc_s'], '.4g')} | "
                    f"{fmt(r['ratio'], '.2f')} | {same} |")
    ratios = [r["ratio"] for r in records if r["ratio"]]
    slow = [f"{r['kernel']} ({r['ratio']:.2f})" for r in records if r["ratio"] and r["ratio"] > SLOW]
    rows += ["", f"geometric mean of pgcc/gcc over {len(ratios)} kernels: {fmt(geomean(ratios), '.3f')}",
             f"ratio > {SLOW}: {', '.join(slow) if slow else 'none'}"]
    return "\n".join(rows)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=5, help="runs of each binary (median is reported)")
    p.add_argument("--kernels", help="comma-separated subset, e.g. gemm,lu (default: all)")
    p.add_argument("--size", choices=("large", "small"), default="large",
                   help="large: the -D sizes on line 1 of each file; small: the file's defaults")
    p.add_argument("--json", help="also write the results to this JSON file")
    p.add_argument("--timeout", type=float, default=900, help="seconds allowed for one run")
    p.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS for the pgcc binary")
    p.add_argument("--pgcc-flags", default="", help="extra pgcc flags, e.g. --no-polyhedral or --no-parallel")
    p.add_argument("--layout", choices=("standalone", "harness"), default="standalone",
                   help="standalone: tests/programs/polybench; harness: tests/programs/pbharness with bench.c")
    args = p.parse_args(argv)
    if args.reps < 1:
        p.error("--reps must be >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    global PGCC_FLAGS, THREADS, LAYOUT
    args = parse_args(argv)
    PGCC_FLAGS, THREADS, LAYOUT = args.pgcc_flags.split(), str(args.threads), args.layout
    kernel_dir = HARNESS_DIR if LAYOUT == "harness" else KERNEL_DIR
    available = sorted(p.stem for p in kernel_dir.glob("*.c") if p.name != "bench.c")
    names = args.kernels.split(",") if args.kernels else available
    unknown = [n for n in names if n not in available]
    if unknown:
        sys.exit(f"unknown kernel(s): {', '.join(unknown)} (available: {', '.join(available)})")
    records = []
    with tempfile.TemporaryDirectory(prefix="pgb-") as tmp:
        workdir = Path(tmp)
        (workdir / "pgb_timer.c").write_text(TIMER_C)
        timer_o = workdir / "pgb_timer.o"
        compile_cmd(["gcc", "-O2", "-c", str(workdir / "pgb_timer.c"), "-o", str(timer_o)], "gcc (timer)")
        for name in names:
            rec = bench_kernel(name, args.size, args.reps, workdir, timer_o, args.timeout)
            records.append(rec)
            print(f"{name}: gcc {fmt(rec['gcc_s'], '.4g')} s, pgcc {fmt(rec['pgcc_s'], '.4g')} s, "
                  f"ratio {fmt(rec['ratio'], '.2f')}, same output {rec['same_output']}"
                  + (f", error: {rec['error']}" if rec["error"] else ""), file=sys.stderr, flush=True)
    print(report(records))
    if args.json:
        ratios = [r["ratio"] for r in records if r["ratio"]]
        with open(args.json, "w") as f:
            json.dump({"layout": LAYOUT, "size": args.size, "reps": args.reps, "threads": args.threads,
                       "pgcc_flags": PGCC_FLAGS, "unit": "seconds (wall clock, median of reps)",
                       "geomean_ratio": geomean(ratios), "kernels": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
