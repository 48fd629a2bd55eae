"""csmith differential run: N random programs compiled by pgcc and by gcc -O0, checksums compared.

    python benchmarks/csmith_differential.py [--seeds 300] [--first 1] [--jobs 2] [--keep DIR] [--show-internal]

Prints counts of compiled / identical / mismatched / rejected (with the most common rejection messages) /
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
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel seeds (default 2)")
    ap.add_argument("--keep", help="directory for the generated programs (default: a temporary one)")
    ap.add_argument("--show-internal", action="store_true", help="print each internal error's message")
    ap.add_argument("--pgcc-flags", default="-O0", help="flags for pgcc (default -O0)")
    a = ap.parse_args(argv)
    why = CC.csmith_available()
    if why:
        print(why)
        return 2
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="csmith-"))
    seeds = range(a.first, a.first + a.seeds)
    flags = tuple(a.pgcc_flags.split())
    counts = collections.Counter()
    reasons = collections.Counter()
    skips = collections.Counter()
    bad = []
    with ThreadPoolExecutor(a.jobs) as pool:
        for o in pool.map(lambda s: CC.run_seed(s, work, flags), seeds):
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
    print(f"csmith options: {' '.join(CC.CSMITH_OPTIONS)}")
    print(f"pgcc flags: {' '.join(flags)}; seeds {a.first}..{a.first + a.seeds - 1}")
    print(f"seeds: {a.seeds}  skipped: {counts['skipped']} ({', '.join(f'{k}: {n}' for k, n in skips.items()) or '-'})")
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


if __name__ == "__main__":
    sys.exit(main())
