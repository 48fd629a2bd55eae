"""csmith differential run: N random programs compiled by pgcc and by gcc -O0, checksums compared.

    python benchmarks/csmith_differential.py [--seeds 300 | --judged 300] [--first 1] [--jobs 2] [--keep DIR]
                                             [--show-internal]

--seeds N runs seeds first..first+N-1. --judged N draws seeds from `first` on until N programs could be judged:
csmith does not promise that its programs terminate, so a seed whose gcc -O0 build does not finish within
csmith_config.RUN_TIMEOUT (or that csmith or gcc fails on) has no reference and is skipped, as csmith-based
testing usually does; --judged counts only programs with a reference. Prints counts of compiled / identical / mismatched / rejected (with the most common rejection messages) /
internal errors / timeouts, the mismatching seeds, and the csmith options (from csmith_config.py).
Needs csmith and its headers (apt-get install csmith libcsmith-dev).
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import csmith_config as CC  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=300, help="number of seeds (default 300)")
    ap.add_argument("--judged", type=int, default=None,
                    help="instead of --seeds: draw seeds until this many have a gcc reference")
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel seeds (default 2)")
    ap.add_argument("--keep", help="directory for the generated programs (default: a temporary one)")
    ap.add_argument("--show-internal", action="store_true", help="print each internal error's message")
    ap.add_argument("--pgcc-flags", default="-O0", help="flags for pgcc (default -O0)")
    ap.add_argument("--csmith-options", default="",
                    help="more csmith options, after csmith_config's (e.g. '--float --max-pointer-depth 4')")
    a = ap.parse_args(argv)
    why = CC.csmith_available()
    if why:
        print(why)
        return 2
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="csmith-"))
    flags = tuple(a.pgcc_flags.split())
    counts = collections.Counter()
    reasons = collections.Counter()
    skips = collections.Counter()
    bad = []
    with ThreadPoolExecutor(a.jobs) as pool:
        for o in outcomes(pool, work, flags, a):
            counts[o.status] += 1
            if o.status == "rejected":
                reasons[o.detail] += 1
            elif o.status == "skipped":
                skips[o.detail.split(":")[0]] += 1
            elif o.status in ("mismatch", "internal", "timeout"):
                bad.append(o)
            print(f"seed {o.seed}: {o.status}", file=sys.stderr, flush=True)
    compiled = counts["identical"] + counts["mismatch"] + counts["timeout"] - sum(
        1 for o in bad if o.status == "timeout" and "compile" in o.detail)
    print(f"csmith options: {' '.join(CC.CSMITH_OPTIONS + a.csmith_options.split())}")
    last = a.first + sum(counts.values()) - 1
    print(f"pgcc flags: {' '.join(flags)}; seeds {a.first}..{last}")
    print(f"seeds: {sum(counts.values())}  judged: {sum(counts.values()) - counts['skipped']}  skipped: {counts['skipped']} ({', '.join(f'{k}: {n}' for k, n in skips.items()) or '-'})")
    print(f"compiled: {compiled}  identical: {counts['identical']}  mismatched: {counts['mismatch']}  "
          f"rejected: {counts['rejected']}  internal errors: {counts['internal']}  timeouts: {counts['timeout']}")
    if reasons:
        print("top rejection messages:")
        for msg, n in reasons.most_common(10):
            print(f"  {n:4d}  {msg}")
    for o in bad:
        detail = o.detail if (o.status != "internal" or a.show_internal) else o.detail.splitlines()[-1]
        print(f"seed {o.seed} {o.status}: {detail[:400]}")
    return 1 if counts["mismatch"] or counts["internal"] else 0


def outcomes(pool, work, flags, a):
    """Outcomes of seeds a.first, a.first+1, ... in seed order: a.seeds of them, or (with --judged) as many as
    it takes for a.judged of them not to be skipped."""
    if a.judged is None:
        yield from pool.map(lambda s: CC.run_seed(s, work, flags, a.csmith_options.split()),
                            range(a.first, a.first + a.seeds))
        return
    seed, judged = a.first, 0
    while judged < a.judged:
        batch = range(seed, seed + max(a.jobs, a.judged - judged))
        for o in pool.map(lambda s: CC.run_seed(s, work, flags, a.csmith_options.split()), batch):
            if judged == a.judged:
                return
            judged += o.status != "skipped"
            yield o
        seed = batch.stop


if __name__ == "__main__":
    sys.exit(main())
