"""csmith differential testing: the csmith options and the generate / build / run / compare steps, in one place.

Used by tests/test_csmith.py (a fixed small set of seeds) and benchmarks/csmith_differential.py (many seeds).
csmith itself and its runtime headers come from the system (Debian packages `csmith` and `libcsmith-dev`);
nothing of csmith is copied into this repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

CSMITH_INCLUDE = "/usr/include/csmith"
APT_PACKAGES = "csmith libcsmith-dev"

# Features switched off, and why: none. Pointers, structs, unions, bit-fields, packed structs, goto, arrays,
# globals, volatiles, all integer widths, safe math, comma, compound assignment, ++/-- and const are all on:
# every csmith feature is part of the C this compiler accepts (a construct it cannot translate exactly is
# rejected, never compiled wrong).
FEATURE_OPTIONS: list[str] = []
# Size limits: small programs keep a seed's compile time to seconds (the CI test runs several on a loaded
# machine); every other feature (arrays, globals, volatiles, all integer widths, safe math, comma, goto,
# compound assignment, ++/--, const) stays on.
SIZE_OPTIONS = [
    "--max-funcs", "3",
    "--max-block-depth", "3",
    "--max-expr-complexity", "6",
    "--max-array-dim", "2",
    "--max-array-len-per-dim", "6",
    "--max-block-size", "4",
    "--max-struct-fields", "3",
]
CSMITH_OPTIONS = FEATURE_OPTIONS + SIZE_OPTIONS

RUN_TIMEOUT = 10  # seconds: csmith programs can loop for very long; gcc's build timing out skips the seed
COMPILE_TIMEOUT = 300


def csmith_available() -> str | None:
    """None when csmith and its headers are installed, else the reason they are not."""
    if shutil.which("csmith") is None:
        return f"csmith is not installed (apt-get install {APT_PACKAGES})"
    if not os.path.exists(os.path.join(CSMITH_INCLUDE, "csmith.h")):
        return f"csmith's runtime headers are not in {CSMITH_INCLUDE} (apt-get install {APT_PACKAGES})"
    return None


def pgcc_command() -> list[str]:
    """The pgcc next to the running Python (the package's console script), else the one on PATH."""
    exe = Path(sys.executable).parent / "pgcc"
    return [str(exe)] if exe.exists() else [shutil.which("pgcc") or "pgcc"]


@dataclass
class Outcome:
    """What happened to one seed.

    status: 'identical', 'mismatch', 'rejected' (a clean `error:` from pgcc), 'internal' (a traceback or an
    internal compiler error), 'timeout' (pgcc's program ran too long while gcc's did not), or 'skipped'
    (csmith or gcc failed, or gcc's program itself timed out). detail: the message or outputs.
    """
    seed: int
    status: str
    detail: str = ""


def error_message(stderr: str) -> str:
    """The first `error:` message of a pgcc diagnostic, without its position (to count rejection reasons)."""
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return re.sub(r"'[^']*'", "'...'", m.group(1)).strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else "(no message)"


def run_seed(seed: int, workdir: Path, pgcc_flags=("-O0",), csmith_extra=()) -> Outcome:
    """Generate csmith program `seed` in `workdir`, build it with pgcc (`pgcc_flags`) and with gcc -O0, run both
    and compare their output (the checksum) and exit status. `csmith_extra`: csmith options after
    CSMITH_OPTIONS (the later of two limits wins). Returns an Outcome; never raises for a failing program (a
    missing csmith or gcc raises FileNotFoundError)."""
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / f"s{seed}.c"
    # (csmith writes platform.info into its working directory)
    gen = subprocess.run(["csmith", "--seed", str(seed), *CSMITH_OPTIONS, *csmith_extra], capture_output=True, text=True,
                         cwd=workdir)
    if gen.returncode != 0:
        return Outcome(seed, "skipped", "csmith failed: " + gen.stderr[-300:])
    src.write_text(gen.stdout)
    ref_exe, exe = workdir / f"s{seed}.gcc", workdir / f"s{seed}.pgcc"
    g = subprocess.run(["gcc", "-O0", "-w", f"-I{CSMITH_INCLUDE}", str(src), "-o", str(ref_exe)],
                       capture_output=True, text=True)
    if g.returncode != 0:
        return Outcome(seed, "skipped", "gcc failed: " + g.stderr[-300:])
    try:
        ref = subprocess.run([str(ref_exe)], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return Outcome(seed, "skipped", "gcc's program timed out")
    try:
        p = subprocess.run(pgcc_command() + ["-w", f"-I{CSMITH_INCLUDE}", *pgcc_flags, str(src), "-o", str(exe)],
                           capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return Outcome(seed, "timeout", "pgcc compile timed out")
    if p.returncode != 0:
        if "Traceback" in p.stderr or "internal compiler error" in p.stderr or "error:" not in p.stderr:
            return Outcome(seed, "internal", p.stderr.strip()[-2000:])
        return Outcome(seed, "rejected", error_message(p.stderr))
    try:
        got = subprocess.run([str(exe)], capture_output=True, text=True, timeout=RUN_TIMEOUT * 3)
    except subprocess.TimeoutExpired:
        return Outcome(seed, "timeout", "pgcc's program timed out")
    if (got.stdout, got.returncode) == (ref.stdout, ref.returncode):
        return Outcome(seed, "identical", got.stdout.strip())
    return Outcome(seed, "mismatch", f"gcc: {ref.stdout.strip()!r} rc={ref.returncode}; "
                                     f"pgcc: {got.stdout.strip()!r} rc={got.returncode} {got.stderr[-300:]}")
