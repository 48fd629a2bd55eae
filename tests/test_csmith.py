"""csmith differential test: random programs (fixed seeds, small sizes) compiled by pgcc print the same checksum
as gcc -O0's build. Options and steps are shared with benchmarks/csmith_differential.py (csmith_config.py).

A seed that pgcc rejects with a clean `error:` counts as rejected; the test fails on any checksum mismatch, on
any internal compiler error or timeout, and when more than MAX_REJECTED of the seeds are rejected.
"""

import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import csmith_config as CC  # noqa: E402

SEEDS = [1, 2, 3, 5, 8, 13, 21, 34]
MAX_REJECTED = 0.25


def test_csmith_checksums_match_gcc(tmp_path):
    why = CC.csmith_available()
    if why:
        pytest.skip(why)
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda s: CC.run_seed(s, tmp_path), SEEDS))
    ran = [o for o in outcomes if o.status != "skipped"]
    assert len(ran) >= len(SEEDS) // 2, [(o.seed, o.detail) for o in outcomes]
    bad = [(o.seed, o.status, o.detail[-600:]) for o in ran if o.status in ("mismatch", "internal", "timeout")]
    assert not bad, bad
    rejected = [(o.seed, o.detail) for o in ran if o.status == "rejected"]
    assert len(rejected) <= MAX_REJECTED * len(ran), rejected
    assert sum(o.status == "identical" for o in ran) >= len(ran) - len(rejected)
