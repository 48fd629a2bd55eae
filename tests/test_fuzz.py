"""A short fixed-seed run of benchmarks/fuzz_pgcc.py: mutated, truncated and random inputs end in a clean
error or a compiled program, never a traceback, a crash or a hang."""

import importlib.util

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
    fz = load_fuzzer()
    counts = fz.run_campaign(150, seed=20261122, jobs=2, timeout=60, out=tmp / "failures")
    assert sum(counts.values()) == 150
    assert counts["traceback"] == counts["hang"] == counts["crash"] == counts["unclear"] == 0, \
        sorted(p.name for p in (tmp / "failures").iterdir())
    assert counts["clean-error"] > 0 and counts["accepted"] > 0
