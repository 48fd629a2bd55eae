"""A short fixed-seed run of benchmarks/fuzz_pgcc.py: mutated, truncated and random inputs end in a clean
error or a compiled program, never a traceback, a crash or a hang."""

import importlib.util
import re
import subprocess
import sys

from conftest import ROOT


def load_fuzzer():
    spec = importlib.util.spec_from_file_location("fuzz_pgcc", ROOT / "benchmarks" / "fuzz_pgcc.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_mutations_are_deterministic():
    fz = load_fuzzer()
    seeds = fz.load_seeds()
    vocab = fz.vocabulary(seeds)
    assert fz.make_input(7, 3, seeds, vocab) == fz.make_input(7, 3, seeds, vocab)
    assert fz.make_input(7, 3, seeds, vocab) != fz.make_input(7, 4, seeds, vocab)


def test_fuzz_no_traceback_no_hang(tmp):
    # a process of its own: this one has MLIR's threads running, which forked workers must not inherit
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fuzz_pgcc.py"), "-n", "150", "--seed",
                        "20261122", "--jobs", "2", "--timeout", "60", "--out", str(tmp / "failures")],
                       capture_output=True, text=True, timeout=600)
    counts = dict(re.findall(r"^  ([a-z-]+) +(\d+)$", r.stdout, re.M))
    assert sum(int(v) for v in counts.values()) == 150, r.stdout + r.stderr
    for bad in ("traceback", "hang", "crash", "unclear"):
        assert counts[bad] == "0", r.stdout
    assert int(counts["clean-error"]) > 0 and int(counts["accepted"]) > 0
    assert r.returncode == 0 and "Traceback" not in r.stderr
