"""Shared helpers: run pgcc and gcc on a program and compare what it prints."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the tests compile with pgcc's own schedules: never with what a developer's tuning database holds (issue 21)
os.environ["PGCC_TUNING_DB"] = os.path.join(tempfile.mkdtemp(prefix="pgcc-tests-"), "tuning-db.json")
PROGRAMS = ROOT / "tests" / "programs"


def pgcc_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "pgcc"
    return [str(exe)] if exe.exists() else [shutil.which("pgcc") or "pgcc"]


def run_pgcc(args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(pgcc_cmd() + [str(a) for a in args], capture_output=True, text=True, **kw)


def build_pgcc(src, out, extra=()):
    r = run_pgcc([src, "-O2", "-o", out, *extra])
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    return out


def compile_error(src, code, flags=("-O2",)) -> str:
    """Write C `code` to path `src`, compile it with pgcc, check that it fails as a user error should (exit 1, no
    traceback, no internal compiler error) and return the diagnostics."""
    src.write_text(code)
    r = run_pgcc([*flags, src, "-o", src.with_suffix(".out")])
    assert r.returncode == 1 and "Traceback" not in r.stderr and "internal compiler error" not in r.stderr, r.stderr
    return r.stderr


def build_gcc(src, out, extra=()):
    r = subprocess.run(["gcc", "-O0", "-ffp-contract=off", "-std=gnu11", str(src), "-o", str(out), *extra, "-lm"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def run_exe(exe, threads=None, args=()):
    env = dict(os.environ)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    r = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=120)
    return r


def assert_passes(exe, threads=(1, 2, 4)) -> list:
    """Run self-checking program `exe` at each OMP_NUM_THREADS of `threads`; each run must exit 0 with its output
    ending in PASS. Returns the runs' outputs."""
    outs = []
    for n in threads:
        got = run_exe(exe, threads=n)
        assert got.returncode == 0 and got.stdout.strip().endswith("PASS"), (n, got.stdout, got.stderr)
        outs.append(got.stdout)
    return outs


def assert_output_like_gcc(src, tmp, flag_sets=((),), threads=(1, 2), stderr=False):
    """Build `src` with gcc -O0 (the reference) and with `pgcc -O3` plus each of `flag_sets`; at every OpenMP
    thread count of `threads` the pgcc program exits 0 and prints what the reference prints (stdout; also stderr
    with `stderr`)."""
    ref = run_exe(build_gcc(src, tmp / "ref"))
    want = (0, ref.stdout, ref.stderr) if stderr else (0, ref.stdout)
    for flags in flag_sets:
        r = run_pgcc([src, "-O3", *flags, "-o", tmp / "pg"])
        assert r.returncode == 0, r.stderr
        for n in threads:
            got = run_exe(tmp / "pg", threads=n)
            assert (got.returncode, got.stdout, got.stderr)[:len(want)] == want, (flags, n)


@pytest.fixture
def tmp(tmp_path):
    return tmp_path


def cpuify_outputs(src, tmp, threads=(1, 2)):
    """Build CUDA `src` with `pgcc --cpuify -O2` and return its stdout at each OpenMP thread count."""
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = []
    for n in threads:
        got = run_exe(tmp / "app", threads=n)
        assert got.returncode == 0, got.stderr
        outs.append(got.stdout)
    return outs


def run_ad_program(src, opt, tmp):
    """Build the AD test program `src` with pgcc at `opt` (-lm) and run it. Returns (the run, rows_of(its stdout)).
    """
    exe = tmp / src.stem
    r = run_pgcc([src, opt, "-o", exe, "-lm"])
    assert r.returncode == 0, r.stderr
    got = run_exe(exe)
    return got, rows_of(got.stdout)


def rows_of(text):
    """[(label, derivative, reference)] from a program's "label value reference" lines."""
    out = []
    for line in text.splitlines():
        label, a, b = line.split()
        out.append((label, float(a), float(b)))
    return out


def emit_ad(src, tmp, *flags) -> str:
    """The module after automatic differentiation (pgcc --emit=ad) of `src` with `flags`, as text."""
    r = run_pgcc([src, *flags, "-S", "--emit=ad", "-o", tmp / "ad.mlir"])
    assert r.returncode == 0, r.stderr
    return (tmp / "ad.mlir").read_text()


def derivative_text(mlir: str, name: str) -> str:
    """The text of function @<name>.autodiff (the reverse-mode derivative of `name`) in module text `mlir`."""
    start = mlir.index(f"func.func private @{name}.autodiff")
    end = mlir.find("func.func", start + 10)
    return mlir[start:end if end > 0 else len(mlir)]
