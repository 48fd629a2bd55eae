"""The tuning database: the best schedule variant found per SCoP, reused by later compiles.

An entry is keyed by the SHA-256 of three texts: the SCoP's text (its iteration domains, access relations and
original schedule, each isl map printed and sorted: everything its dependences, hence the legality of a schedule,
depend on; parameters stay symbolic, so a problem size is not part of the key), the machine (architecture, CPU
model, core count) and pgcc's version (a schedule computed from the same flags by another version may differ).
The value records what the autotuner (autotune.py) selected for that SCoP: its own variant (pgcc's polyhedral
options and any user schedule, as a sweep Variant), the schedule it produced (`--emit=scop`'s flat schedule, for
inspection), the measured medians of the variant and of the schedule it replaced, and the budget spent.

The file is JSON ({"version": 1, "entries": {key: entry}}), written atomically (a temporary file renamed over
it) under an exclusive lock (fcntl), so that concurrent compiles and tuners never see half a file. Default
path: $PGCC_TUNING_DB, else ~/.cache/pgcc/tuning-db.json.

Later compiles (`pgcc -O3`, `--polyhedral`) look up the SCoPs of each C file when the database has entries for
this machine and version (options_for()): each SCoP found gets its own stored variant, as an entry of a
generated --schedule file (user_schedule.py's per-SCoP options and user schedules), whatever file it was tuned
in; the other SCoPs keep the command line's flags. Only variants that passed the legality check (pgcc's stage
checks every schedule, and user schedules are checked again when imposed) and the output check are ever stored.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import platform
import tempfile

FORMAT = 1


def default_path() -> str:
    """$PGCC_TUNING_DB, else ~/.cache/pgcc/tuning-db.json."""
    return os.environ.get("PGCC_TUNING_DB") or os.path.join(os.path.expanduser("~"), ".cache", "pgcc",
                                                            "tuning-db.json")


def machine() -> str:
    """The machine's identity for the key: architecture, CPU model name and number of cores."""
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.machine()} {model or platform.processor()} x{os.cpu_count()}"


def pgcc_version() -> str:
    from polygeist_py.driver import VERSION
    return VERSION


def scop_text(model) -> str:
    """The SCoP's text for the key: its domain, reads, writes and original schedule, map by map, sorted (isl
    prints the pieces of a union in hash order)."""
    from .isl_model import maps
    parts = []
    for what in ("domain", "reads", "writes", "original"):
        obj = getattr(model, what)
        pieces = [str(s) for s in _sets(obj)] if what == "domain" else [str(m) for m in maps(obj)]
        parts.append(what + ": " + "; ".join(sorted(pieces)))
    return "\n".join(parts)


def _sets(uset) -> list:
    out = []
    uset.foreach_set(out.append)
    return out


def key(text: str, machine_id: str | None = None, version: str | None = None) -> str:
    """The database key of a SCoP text on a machine for a pgcc version (defaults: this machine, this pgcc)."""
    m = machine() if machine_id is None else machine_id
    v = pgcc_version() if version is None else version
    return hashlib.sha256("\0".join((text, m, v)).encode()).hexdigest()


class TuningDB:
    """A tuning database file (see the module's docstring). Methods re-read the file, so several processes can
    share it."""

    def __init__(self, path: str | None = None):
        self.path = os.path.abspath(path or default_path())

    @contextlib.contextmanager
    def _locked(self):
        import fcntl
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def entries(self) -> dict:
        """{key: entry} of the file ({} when it does not exist or is not a tuning database)."""
        try:
            with open(self.path) as f:
                doc = json.load(f)
        except (OSError, json.JSONDecodeError):
            return {}
        return doc.get("entries", {}) if isinstance(doc, dict) and doc.get("version") == FORMAT else {}

    def get(self, text: str) -> dict | None:
        """The entry for SCoP text `text` on this machine and pgcc version, or None."""
        return self.entries().get(key(text))

    def put(self, text: str, entry: dict) -> str:
        """Store `entry` for SCoP text `text` (this machine and pgcc version; replaces an older one). Returns
        the key."""
        k = key(text)
        entry = dict(entry, machine=machine(), pgcc_version=pgcc_version(), scop_text=text)
        with self._locked():
            entries = self.entries()
            entries[k] = entry
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path), prefix=".tuning-db-")
            with os.fdopen(fd, "w") as f:
                json.dump({"version": FORMAT, "entries": entries}, f, indent=1)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, self.path)
        return k

    def has_entries_here(self) -> bool:
        """Whether some entry was tuned on this machine with this pgcc version (a cheap test before parsing)."""
        m, v = machine(), pgcc_version()
        return any(e.get("machine") == m and e.get("pgcc_version") == v for e in self.entries().values())


def scop_texts(path: str, clang_args=()) -> list:
    """[(SCoP name, SCoP text, weight)] of the modelled SCoPs of C file `path`; weight orders SCoPs by work
    (loop depth, then statements).

    Raises:
        CompileError: the program does not compile.
    """
    from .experiments import load
    exp = load(path, clang_args=list(clang_args))
    out = []
    with exp._ctx:
        for s in exp.scops:
            depth = max((len(st.loops) for st in s.model.scop.statements), default=0)
            out.append((s.name, scop_text(s.model), (depth, len(s.statements))))
    return out


def _polyhedral_on(o) -> bool:
    return o.polyhedral if o.polyhedral is not None else o.opt_level >= 3


def _explicit_schedule_flags(o) -> bool:
    """Whether the command line chose the schedule itself (the user's choice beats the database)."""
    return bool(o.schedule_file or o.tile_sizes_given or o.tile_sizes is None or o.fusion != "smart"
                or not o.parallel or not o.unroll_jam)


def entry_variant(entry: dict):
    """The sweep Variant an entry records (its "variant" document; entries written before it was stored: its
    flags and user schedules)."""
    from .sweep import Variant
    if isinstance(entry.get("variant"), dict):
        return Variant.from_document(entry["variant"])
    from polygeist_py import driver
    parsed = driver.parse_args([*entry.get("variant_flags", []), "x.c"])
    return Variant(tile_sizes=None if parsed.tile_sizes_given is False and parsed.tile_sizes is not None
                   else (parsed.tile_sizes or ()),
                   fusion=None if parsed.fusion == "smart" else parsed.fusion, parallel=parsed.parallel,
                   unroll_jam=parsed.unroll_jam, schedules=entry.get("schedules"))


def schedule_entry(name: str, entry: dict, db_path: str) -> dict:
    """The --schedule file entry (user_schedule.py) that gives SCoP `name` of the file being compiled the variant
    stored in database entry `entry`: its options, or its user schedule (stored under the name the SCoP had in
    the tuned file, entry["scop"]: same SCoP text, so the same statements and parameters)."""
    own = entry_variant(entry).scop_entry(entry.get("scop", name))
    speedup = entry.get("speedup")
    origin = f"tuning database {db_path}: {entry.get('variant_key', 'default')}" + \
        (f", {speedup:.2f}x the default schedule" if speedup else "")
    return {"name": name, **own, "origin": origin}


def write_schedule_file(entries: list, workdir: str) -> str:
    """A --schedule file of `entries` (schedule file entries with their "name") in `workdir`; returns its path
    (named after its contents: compiles of the same file reuse it)."""
    text = json.dumps({"scops": entries}, indent=1, sort_keys=True)
    path = os.path.join(workdir, f"tuned-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json")
    with open(path, "w") as f:
        f.write(text)
    return path


def apply_variant(o, variant, workdir: str):
    """A copy of driver Options `o` compiling with sweep Variant `variant`: its flags, and its per-SCoP entries
    (user schedules, options) as a --schedule file in `workdir`."""
    from polygeist_py import driver
    parsed = driver.parse_args([*variant.flags(), "x.c"])
    o2 = dataclasses.replace(o, fusion=parsed.fusion, tile_sizes=parsed.tile_sizes,
                             tile_sizes_given=parsed.tile_sizes_given, parallel=parsed.parallel,
                             unroll_jam=parsed.unroll_jam)
    if variant.schedules:
        sched = write_schedule_file([{"name": n, **e} for n, e in sorted(variant.entries().items())], workdir)
        o2 = dataclasses.replace(o2, schedule_file=sched, polyhedral=True)
    return o2


def options_for(path: str, o, language: str | None, workdir: str):
    """The driver's hook: Options for compiling `path`, after `--autotune` (tunes the file first) and with the
    tuning database's variant for each of its SCoPs that has one (a generated --schedule file). Returns `o`
    itself when nothing applies: the database is off (--no-tuning-db), the file is not C, the polyhedral stage
    is off, the command line chose the schedule (--schedule=, --tile-sizes=, --fusion=, --no-parallel,
    --no-unroll-jam, --no-tiling), or the database has nothing for this machine and pgcc version or for the
    file's SCoPs.

    Raises:
        CompileError: --autotune with a schedule flag of the command line.
    """
    if language not in (None, "c") or not path.endswith(".c"):
        return o
    autotune = getattr(o, "autotune", None)
    if not autotune and (getattr(o, "no_tuning_db", False) or not _polyhedral_on(o)):
        return o
    if _explicit_schedule_flags(o):
        if autotune:
            from polygeist_py.errors import CompileError
            raise CompileError("--autotune chooses the schedule itself: it cannot be combined with --schedule=, "
                               "--tile-sizes=, --no-tiling, --fusion=, --no-parallel or --no-unroll-jam")
        return o
    db = TuningDB(getattr(o, "tuning_db", None))
    if autotune:
        from . import autotune as at
        result = at.autotune_for_driver(path, o, None if o.no_tuning_db else db, budget=autotune)
        if not _polyhedral_on(o):
            o = dataclasses.replace(o, polyhedral=True)
        if o.no_tuning_db:  # compile with what the search found, store nothing
            if result.best is None:
                return o
            return apply_variant(o, result.best, workdir)
    if not db.has_entries_here():
        return o
    from polygeist_py.errors import CompileError
    try:
        texts = scop_texts(path, o.clang_args)
    except CompileError:  # the compile itself reports the program's errors, all of them, as usual
        return o
    found = db.entries()
    hits = [(name, found.get(key(text))) for name, text, _ in texts]
    hits = [(name, e) for name, e in hits if e is not None]
    if not hits:
        return o
    if getattr(o, "verbose", False):
        import sys
        for name, e in hits:
            print(f"pgcc: tuning database {db.path}: {path}: {name}: {e.get('variant_key', 'default')} (tuned in "
                  f"{os.path.basename(e.get('kernel') or '?')} as {e.get('scop')}, {e.get('speedup') or 1:.2f}x "
                  f"the default schedule)", file=sys.stderr)
    # each SCoP its own variant, as a --schedule file entry; the others keep the command line's flags
    sched = write_schedule_file([schedule_entry(name, e, db.path) for name, e in hits], workdir)
    return dataclasses.replace(o, schedule_file=sched, polyhedral=True)
