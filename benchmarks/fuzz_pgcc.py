"""Fuzz the pgcc driver with truncated, mutated and random C/CUDA inputs.

Every input must end in one of: accepted (exit 0), a clean error (exit 1 and a ``file:line:col: error:`` or
``pgcc: error:`` line). Anything else is a failure and is saved for reproduction:

- traceback:  a Python traceback was printed or an exception escaped ``driver.main``;
- internal:   pgcc printed ``internal compiler error`` (clean output, but a bug in pgcc);
- hang:       the input took longer than ``--timeout`` seconds (the worker is killed and restarted);
- crash:      the worker process died (a segfault in libclang/MLIR/LLVM);
- unclear:    exit 1 without an error line.

Seeds are the repository's own programs (tests/programs, examples/cuda). Input i is generated from
``random.Random(f"{seed}:{i}")``, so ``--only i`` regenerates one input exactly. Compilations run in-process
in worker processes (``driver.main([file, '-S', ...])``), one input at a time, with a hard per-input timeout.

    python benchmarks/fuzz_pgcc.py -n 10000 --jobs 2 --seed 1 --out fuzz-failures
"""

from __future__ import annotations

import argparse
import io
import multiprocessing as mp
import multiprocessing.connection
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_DIRS = (ROOT / "tests" / "programs", ROOT / "examples")
CATEGORIES = ("accepted", "clean-error", "internal", "traceback", "hang", "crash", "unclear")
FAILURES = ("internal", "traceback", "hang", "crash", "unclear")

TOKEN = re.compile(rb'\s+|[A-Za-z_]\w*|\d+\.?\d*(?:[eE][-+]?\d+)?[fFuUlL]*|"(?:[^"\\\n]|\\.)*"|'
                   rb"'(?:[^'\\\n]|\\.)*'|<<<|>>>|<<=|>>=|->|\+\+|--|&&|\|\||[<>=!+\-*/%&|^]=|<<|>>|##|\S")


def load_seeds(dirs=SEED_DIRS) -> list[tuple[str, bytes]]:
    """(suffix, contents) of every .c and .cu file under `dirs`, in a stable order."""
    seeds = []
    for d in dirs:
        for p in sorted(Path(d).rglob("*")):
            if p.suffix in (".c", ".cu") and p.is_file():
                seeds.append((p.suffix, p.read_bytes()))
    if not seeds:
        raise SystemExit("fuzz_pgcc: no seed programs found")
    return seeds


def header_dirs(dirs=SEED_DIRS) -> list[str]:
    """-I flags for the seeds' own headers (the inputs are compiled from a temporary directory)."""
    found = sorted({str(p.parent) for d in dirs for p in Path(d).rglob("*.h")})
    return [f"-I{d}" for d in found]


def tokens(data: bytes) -> list[bytes]:
    return TOKEN.findall(data)


def _range(rng: random.Random, n: int, most: int = 8) -> tuple[int, int]:
    a = rng.randrange(max(n, 1))
    return a, min(n, a + rng.randint(1, most))


def _code_positions(toks: list[bytes]) -> list[int]:
    return [i for i, t in enumerate(toks) if not t.isspace()] or [0]


class Mutator:
    """The mutations, each `(rng, data, seeds, vocabulary) -> bytes`."""

    @staticmethod
    def truncate(rng, data, seeds, vocab):
        return data[: rng.randrange(len(data) + 1)]

    @staticmethod
    def delete_tokens(rng, data, seeds, vocab):
        t = tokens(data)
        pos = _code_positions(t)
        a, b = _range(rng, len(pos))
        if a >= len(pos):
            return data
        lo, hi = pos[a], pos[min(b, len(pos)) - 1] + 1
        return b"".join(t[:lo] + t[hi:])

    @staticmethod
    def duplicate_tokens(rng, data, seeds, vocab):
        t = tokens(data)
        a, b = _range(rng, len(t), 20)
        at = rng.randrange(len(t) + 1)
        return b"".join(t[:at] + t[a:b] + t[at:])

    @staticmethod
    def swap_tokens(rng, data, seeds, vocab):
        t = tokens(data)
        if len(t) < 4:
            return data
        a, b = _range(rng, len(t) // 2, 12)
        c, d = _range(rng, len(t) - len(t) // 2, 12)
        c, d = c + len(t) // 2, d + len(t) // 2
        if b > c:
            return data
        return b"".join(t[:a] + t[c:d] + t[b:c] + t[a:b] + t[d:])

    @staticmethod
    def replace_tokens(rng, data, seeds, vocab):
        t = tokens(data)
        pos = _code_positions(t)
        for _ in range(rng.randint(1, 4)):
            t[rng.choice(pos)] = rng.choice(vocab)
        return b"".join(t)

    @staticmethod
    def replace_alike(rng, data, seeds, vocab):
        """Identifiers by identifiers, numbers by numbers, operators by operators: mostly still parses, so
        it reaches the type checker and the frontend's lowering."""
        t = tokens(data)
        pos = _code_positions(t)
        for _ in range(rng.randint(1, 3)):
            i = rng.choice(pos)
            kind = _kind(t[i])
            pool = t if rng.random() < 0.8 else rng.sample(vocab, min(len(vocab), 200))  # mostly this file's
            same = [w for w in pool if not w.isspace() and _kind(w) == kind]
            if same:
                t[i] = rng.choice(same)
        return b"".join(t)

    @staticmethod
    def tweak_values(rng, data, seeds, vocab):
        """Numbers to edge values, binary operators to other binary operators: the program still parses and
        type-checks, so it reaches constant folding, loop analysis and lowering."""
        t = tokens(data)
        spots = [i for i, w in enumerate(t) if w in OPERATORS or (w[:1].isdigit() and _kind(w) == "number")]
        for i in rng.sample(spots, min(len(spots), rng.randint(1, 3))):
            t[i] = rng.choice(OPERATORS) if t[i] in OPERATORS else rng.choice(NUMBERS)
        return b"".join(t)

    @staticmethod
    def splice_lines(rng, data, seeds, vocab):
        lines = data.splitlines(keepends=True)
        other = rng.choice(seeds)[1].splitlines(keepends=True)
        a, b = _range(rng, len(lines), 15)
        c, d = _range(rng, len(other), 15)
        return b"".join(lines[:a] + other[c:d] + lines[b:])

    @staticmethod
    def flip_bytes(rng, data, seeds, vocab):
        buf = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if buf:
                i = rng.randrange(len(buf))
                buf[i] ^= rng.choice((1, 2, 4, 8, 16, 32, 64, 128, rng.randrange(256)))
        return bytes(buf)

    @staticmethod
    def random_bytes(rng, data, seeds, vocab):
        n = rng.randint(0, 2000)
        if rng.random() < 0.5:  # printable ASCII reaches further into the parser than binary does
            return bytes(rng.choice(b" \n\t{}()[];,+-*/=<>!&|^%~?:.#\"'_0123456789abcdefxyzintvoid")
                         for _ in range(n))
        return rng.randbytes(n)

    @staticmethod
    def token_soup(rng, data, seeds, vocab):
        return b" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 400)))


OPERATORS = [b"+", b"-", b"*", b"/", b"%", b"<<", b">>", b"&", b"|", b"^", b"<", b">", b"<=", b">=", b"==",
             b"!=", b"&&", b"||"]
NUMBERS = [b"0", b"1", b"2", b"3", b"7", b"31", b"32", b"63", b"64", b"255", b"1024", b"65536", b"2147483647",
           b"4294967295u", b"9223372036854775807LL", b"0.5", b"1e300", b"1e-300", b"0x7f", b"017"]


def _kind(tok: bytes) -> str:
    if tok[:1].isalpha() or tok[:1] == b"_":
        return "name"
    if tok[:1].isdigit():
        return "number"
    if tok[:1] in (b'"', b"'"):
        return "literal"
    return "punct"


# replace_alike and tweak_values several times: inputs that still parse find more bugs than ones that do not
MUTATORS = [getattr(Mutator, n) for n in ("truncate", "delete_tokens", "duplicate_tokens", "swap_tokens",
                                          "replace_tokens", "replace_alike", "replace_alike", "tweak_values",
                                          "tweak_values", "tweak_values",
                                          "splice_lines", "flip_bytes", "random_bytes", "token_soup")]


def make_input(seed: int, index: int, seeds, vocab, mutators=None) -> tuple[str, bytes, str]:
    """Input number `index` of campaign `seed`: (suffix, contents, description of the mutations).
    `mutators`: the Mutator functions to draw from (default MUTATORS)."""
    rng = random.Random(f"{seed}:{index}")
    k = rng.randrange(len(seeds))
    suffix, data = seeds[k]
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        m = rng.choice(mutators or MUTATORS)
        data = m(rng, data, seeds, vocab)
        done.append(m.__name__)
    if rng.random() < 0.05:
        suffix = ".cu" if suffix == ".c" else ".c"
    return suffix, data, f"seed file #{k}, {'+'.join(done)}"


def vocabulary(seeds) -> list[bytes]:
    words = sorted({t for _, d in seeds for t in tokens(d) if not t.isspace() and len(t) < 40})
    return words + [b"{", b"}", b"(", b")", b";", b"[", b"]", b"*", b"&", b"#", b"\n#include <stdio.h>\n",
                    b"__syncthreads()", b"<<<", b">>>", b"goto", b"switch", b"struct", b"union", b"..."]


# ---------------------------------------------------------------------------------------------- workers
def classify(code, stderr: str, escaped: str | None) -> str:
    if escaped or "Traceback (most recent call last)" in stderr:
        return "traceback"
    if "internal compiler error" in stderr:
        return "internal"
    if code == 0:
        return "accepted"
    if code == 1 and re.search(r"(^|\n)(\S+:\d+:\d+|pgcc): error: ", stderr):
        return "clean-error"
    return "unclear"


def compile_one(path: str, workdir: str, flags: list[str]) -> tuple[str, str]:
    """Run driver.main on one file in this process; (category, stderr)."""
    import traceback

    from polygeist_py import driver

    argv = [path, "-S", "-o", os.path.join(workdir, "out.s"), *header_dirs(), *flags]
    if path.endswith(".cu"):
        argv.append("--cpuify")
    err = io.StringIO()
    old_err, old_out = sys.stderr, sys.stdout
    sys.stderr, sys.stdout = err, io.StringIO()
    escaped, code = None, None
    try:
        code = driver.main(argv)
    except SystemExit as e:  # main() only exits when run as a script: count the status anyway
        code = e.code
    except BaseException:  # noqa: BLE001 - an escaped exception is exactly what the fuzzer looks for
        escaped = traceback.format_exc()
    finally:
        sys.stderr, sys.stdout = old_err, old_out
    text = err.getvalue() + (escaped or "")
    return classify(code, text, escaped), text


def worker(conn, flags, memory_limit):
    if memory_limit:  # a runaway input fails with MemoryError instead of waking the machine's OOM killer
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    workdir = tempfile.mkdtemp(prefix="pgcc-fuzz-")
    import polygeist_py.driver  # noqa: F401  (import once, before the first timed input)
    while True:
        job = conn.recv()
        if job is None:
            return
        index, suffix, data = job
        path = os.path.join(workdir, f"input{suffix}")
        with open(path, "wb") as f:
            f.write(data)
        conn.send((index,) + compile_one(path, workdir, flags))


class Worker:
    """A worker process; restarted after a hang or a crash, and every `recycle` inputs (memory)."""

    def __init__(self, ctx, flags, recycle=400, memory_limit=6 << 30):
        self.ctx, self.flags, self.recycle, self.memory_limit = ctx, flags, recycle, memory_limit
        self.proc = None
        self.start()

    def start(self):
        if self.proc is not None:
            self.stop()
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=worker, args=(child, self.flags, self.memory_limit), daemon=True)
        self.proc.start()
        child.close()
        self.count = 0
        self.job = None

    def stop(self):
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()

    def submit(self, job):
        if self.count >= self.recycle:
            self.start()
        self.count += 1
        self.job, self.started = job, time.monotonic()
        self.conn.send(job)


def run_campaign(n: int, seed: int, jobs: int, timeout: float, out: Path | None, flags=(), only=None,
                 verbose=False, start_timeout: float = 120.0, mutators=None) -> Counter:
    """Fuzz pgcc with `n` inputs; returns the count per category (see CATEGORIES). Failing inputs are written
    to `out` as ``<category>-<index><suffix>`` with a ``.txt`` holding pgcc's stderr."""
    seeds = load_seeds()
    vocab = vocabulary(seeds)
    # fork is cheap, but forking a process that already runs MLIR/LLVM threads crashes the children
    ctx = mp.get_context("spawn" if "mlir" in sys.modules else "fork")
    indices = [only] if only is not None else list(range(n))
    todo = list(reversed(indices))
    workers = [Worker(ctx, list(flags)) for _ in range(min(jobs, len(indices)))]
    counts = Counter()
    done = 0
    t0 = time.monotonic()
    if out:
        out.mkdir(parents=True, exist_ok=True)

    def record(index, category, text, data, suffix):
        nonlocal done
        counts[category] += 1
        done += 1
        if category in FAILURES and out:
            (out / f"{category}-{index}{suffix}").write_bytes(data)
            (out / f"{category}-{index}.txt").write_text(text)
        if verbose or category in FAILURES:
            lines = text.strip().splitlines()
            key = [ln for ln in lines if "internal compiler error" in ln or "Error" in ln or "error:" in ln]
            first = (key or lines or [""])[-1 if category == "traceback" else 0]
            print(f"[{index}] {category}: {first[:200]}", flush=True)
        if done % 500 == 0:
            print(f"{done}/{len(indices)} in {time.monotonic() - t0:.0f}s: {dict(counts)}", flush=True)

    inputs = {}
    try:
        while todo or any(w.job for w in workers):
            for w in workers:
                if w.job is None and todo:
                    i = todo.pop()
                    suffix, data, _ = make_input(seed, i, seeds, vocab, mutators)
                    inputs[i] = (suffix, data)
                    w.submit((i, suffix, data))
            busy = [w for w in workers if w.job]
            ready = mp.connection.wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=0.5)
            now = time.monotonic()
            for w in busy:
                index = w.job[0]
                suffix, data = inputs[index]
                if w.conn in ready:
                    try:
                        _, category, text = w.conn.recv()
                    except (EOFError, OSError):
                        category, text = "crash", f"worker died (exit code {w.proc.exitcode})"
                        w.start()
                    else:
                        w.job = None
                    record(index, category, text, data, suffix)
                    del inputs[index]
                elif w.proc.sentinel in ready or not w.proc.is_alive():
                    record(index, "crash", f"worker died (exit code {w.proc.exitcode})", data, suffix)
                    del inputs[index]
                    w.start()
                # the first input of a fresh worker also pays for importing MLIR and libclang
                elif now - w.started > (timeout if w.count > 1 else max(timeout, start_timeout)):
                    record(index, "hang", f"no result after {timeout:.0f}s", data, suffix)
                    del inputs[index]
                    w.start()
    finally:
        for w in workers:
            try:
                w.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            w.stop()
    return counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=10000, help="number of inputs (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="campaign seed (deterministic inputs)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per input before it counts as a hang")
    p.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where failing inputs are saved")
    p.add_argument("--only", type=int, help="run input INDEX alone (reproduce a failure)")
    p.add_argument("--flags", default="-O0", help="extra pgcc flags (default -O0)")
    p.add_argument("--mutators", help="comma-separated subset of the mutations, e.g. replace_alike,delete_tokens "
                                      "(inputs that still parse reach deeper into pgcc)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every input's outcome")
    a = p.parse_args(argv)
    mutators = None
    if a.mutators:
        try:
            mutators = [getattr(Mutator, m) for m in a.mutators.split(",")]
        except AttributeError as e:
            p.error(f"unknown mutation: {e.name}")
    t0 = time.monotonic()
    counts = run_campaign(a.n, a.seed, a.jobs, a.timeout, a.out, a.flags.split(), a.only, a.verbose,
                          mutators=mutators)
    total = sum(counts.values())
    print(f"inputs: {total} in {time.monotonic() - t0:.0f}s (seed {a.seed})")
    for c in CATEGORIES:
        print(f"  {c:12s} {counts[c]}")
    bad = sum(counts[c] for c in ("traceback", "hang", "crash", "unclear"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
