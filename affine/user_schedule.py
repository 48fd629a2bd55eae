"""`--schedule=FILE`: per-SCoP user schedules and scheduling options, in the spirit of Polly's JSCoP.

The file is JSON, {"scops": [entry, ...]}, one entry per SCoP it changes; SCoPs without an entry are scheduled
with the command line's flags. An entry names its SCoP ("name": "kernel_gemm.scop0", as `--emit=scop` prints
it) and holds a user schedule, options for the schedule pgcc computes, or both:

* a user schedule: "schedule": an isl union map from the statements to time vectors
  ("{ S0[i0, i1] -> [i1, i0]; ... }"), or "statements": [{"name": "S0", "schedule": "{ S0[i0, i1] -> [i1, i0] }"},
  ...], one per statement; with it, "parallel" lists the schedule dimensions to run as parallel loops (checked:
  they must carry no dependence) and "unroll_jam": true lets pgcc unroll and jam its loops where that is legal
  (jam_marks.py; default false: the schedule is imposed as written). Parameters are p0, p1, ... as in the
  printed model;
* options, each replacing the command line's flag for this SCoP only: "tile_sizes": [sizes per band member,
  outermost first] (--tile-sizes=, also for two-member bands), [] for no tiling (--no-tiling); "fusion": "max",
  "smart" or "none" (--fusion=); "parallel": true or false (--no-parallel); "unroll_jam": true or false
  (--no-unroll-jam). "tile_sizes" and "fusion" shape a computed schedule, so an entry with a user schedule
  cannot have them.

`--emit=scop` prints the same document (so its "schedule" entries can be edited and passed back), with the
options each SCoP was compiled with under "compiled_with"; that key and the other descriptive keys it prints
("statements" without schedules, "dependences", ...) are ignored when the file is read. "origin" (text) says
where an entry came from (the tuning database writes such files: tuning_db.py); `--emit=scop` repeats it.
"""

from __future__ import annotations

import json
import re

from polygeist_py.errors import CompileError

OPTION_KEYS = ("tile_sizes", "fusion", "parallel", "unroll_jam")
FUSION_POLICIES = ("max", "smart", "none")  # (scheduler.FUSION_POLICIES, without importing isl to read a file)
# what --emit=scop prints besides the schedule (describe.py): read back without effect
DESCRIPTIVE_KEYS = ("function", "status", "reason", "location", "parameters", "arrays", "original_schedule",
                    "dependences", "schedule_tree", "compiled_with")
KNOWN_KEYS = ("name", "schedule", "statements", "origin") + OPTION_KEYS + DESCRIPTIVE_KEYS


class ScheduleFileError(CompileError):
    """A malformed schedule file; rendered `file:line:col: error: ...` (`file: error: ...` when the place in
    the file is not known)."""

    def render(self, text: str | None = None) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else f"{self.file}"
        return f"{where}: error: {self.message}"


def read_schedule_file(path: str) -> dict:
    """The entries of a schedule file: {scop name: {"schedule": text or [per-statement texts] (user schedules
    only), "parallel": [dims] (user schedules only), "options": {key: value} (the OPTION_KEYS it sets; for a
    user schedule only "unroll_jam"), "origin": text (when given)}}.

    Raises:
        CompileError: the file cannot be read.
        ScheduleFileError: it is not JSON, or not in the format of the module's docstring (the message names the
            SCoP and the key).
    """
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise CompileError(f"cannot read schedule file '{path}': {e.strerror}") from e
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScheduleFileError(f"schedule file is not JSON: {e.msg}", path, e.lineno, e.colno) from e
    return schedules_from_doc(doc, path, text)


def schedules_from_doc(doc, where: str = "schedule", text: str | None = None) -> dict:
    """read_schedule_file's result for a parsed document; `where` names it in errors (a path), `text` (the
    file's contents) lets an error give the line of the offending entry.

    Raises:
        ScheduleFileError: the document is not in the format of the module's docstring.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("scops"), list):
        raise ScheduleFileError("expected an object with a list \"scops\" of SCoP entries", where)
    out = {}
    for i, entry in enumerate(doc["scops"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ScheduleFileError(f"SCoP entry {i + 1} needs a \"name\" (the SCoP's, as --emit=scop prints it)",
                                    where)
        name = entry["name"]
        if name in out:
            raise _error(f"SCoP {name} has two entries", where, text, name)
        out[name] = _entry(entry, name, where, text)
    return out


def _entry(entry: dict, name: str, where: str, text) -> dict:
    def fail(key: str, msg: str):
        raise _error(f"SCoP {name}: \"{key}\" {msg}", where, text, name, key)

    for key in entry:
        if key not in KNOWN_KEYS:
            close = [k for k in OPTION_KEYS + ("schedule", "statements") if _similar(key, k)]
            fail(key, "is not a key of a SCoP entry" + (f" (did you mean \"{close[0]}\"?)" if close else
                                                         f": expected schedule, statements, {', '.join(OPTION_KEYS)}"))
    out = {}
    schedule = entry.get("schedule")
    stmts = entry.get("statements")
    if schedule is not None:
        if not isinstance(schedule, str):
            fail("schedule", "must be an isl union map in text form")
        out["schedule"] = schedule
    elif isinstance(stmts, list) and any(isinstance(s, dict) and "schedule" in s for s in stmts):
        # (the statements --emit=scop prints have no "schedule": they describe, and are ignored)
        if not all(isinstance(s, dict) and isinstance(s.get("schedule"), str) for s in stmts):
            fail("statements", "must give every statement a \"schedule\" (an isl map in text form)")
        out["schedule"] = [s["schedule"] for s in stmts]
    elif stmts is not None and not isinstance(stmts, list):
        fail("statements", "must be a list of {\"name\", \"schedule\"} objects")
    user = "schedule" in out
    options = {}
    if "parallel" in entry:
        par = entry["parallel"]
        if user:
            if not isinstance(par, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                                    for d in par):
                fail("parallel", "must be a list of schedule dimensions (with a user schedule it says which of "
                                 "its dimensions run in parallel)")
            out["parallel"] = par
        elif isinstance(par, bool):
            options["parallel"] = par
        else:
            fail("parallel", "must be true or false (a list of dimensions needs a user schedule: \"schedule\")")
    elif user:
        out["parallel"] = []
    if "tile_sizes" in entry:
        ts = entry["tile_sizes"]
        if user:
            fail("tile_sizes", "applies to the schedule pgcc computes: this entry's user schedule fixes the tiling")
        if not isinstance(ts, list) or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 1
                                               for t in ts):
            fail("tile_sizes", f"must be a list of positive integers (one per band member, outermost first; [] for "
                               f"no tiling), not {json.dumps(ts)}")
        options["tile_sizes"] = tuple(ts)
    if "fusion" in entry:
        if user:
            fail("fusion", "applies to the schedule pgcc computes: this entry's user schedule fixes the fusion")
        if entry["fusion"] not in FUSION_POLICIES:
            fail("fusion", f"must be one of {', '.join(FUSION_POLICIES)}, not {json.dumps(entry['fusion'])}")
        options["fusion"] = entry["fusion"]
    if "unroll_jam" in entry:
        if not isinstance(entry["unroll_jam"], bool):
            fail("unroll_jam", f"must be true or false, not {json.dumps(entry['unroll_jam'])}")
        options["unroll_jam"] = entry["unroll_jam"]
    if "origin" in entry:
        if not isinstance(entry["origin"], str):
            fail("origin", "must be text")
        out["origin"] = entry["origin"]
    out["options"] = options
    return out


def _similar(a: str, b: str) -> bool:
    """A likely misspelling: the same letters but for one, or a prefix/plural ("tile_size", "tilesizes")."""
    x, y = a.lower().replace("-", "_").replace("_", ""), b.replace("_", "")
    if x == y or x.rstrip("s") == y.rstrip("s"):
        return True
    if abs(len(x) - len(y)) > 1:
        return False
    return sum(p != q for p, q in zip(x, y)) + abs(len(x) - len(y)) <= 1


def _error(message: str, where: str, text, name: str, key: str | None = None) -> ScheduleFileError:
    """The error at the entry of SCoP `name` (at its `key` when found after the name) when `text` is given."""
    line = col = 0
    if text:
        m = re.search(r'"name"\s*:\s*' + re.escape(json.dumps(name)), text)
        pos = m.start() if m else -1
        if m and key:  # the key's line when it follows the name in the entry, else the name's
            k = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(text, m.end())
            nxt = re.compile(r'\{\s*"name"').search(text, m.end())
            if k and (nxt is None or k.start() < nxt.start()):
                pos = k.start()
        if pos >= 0:
            line = text.count("\n", 0, pos) + 1
            col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return ScheduleFileError(message, where, line, col)


def schedule_options(base, options: dict):
    """ScheduleOptions `base` (the command line's) with an entry's options (see read_schedule_file) applied:
    tile sizes () turn tiling off; given tile sizes also apply to two-member bands, as --tile-sizes= does."""
    import dataclasses
    changes = {k: options[k] for k in ("fusion", "parallel", "unroll_jam") if k in options}
    if "tile_sizes" in options:
        ts = tuple(options["tile_sizes"])
        changes.update(tile=bool(ts), tile_sizes=ts or base.tile_sizes, two_member_tile=None if ts else
                       base.two_member_tile)
    return dataclasses.replace(base, **changes) if changes else base


def describe_options(sched, entry: dict | None) -> dict:
    """What `--emit=scop` prints under "compiled_with" for a SCoP: the options its schedule was computed with
    (ScheduleOptions `sched`), or, for a user schedule, its parallel dimensions and unroll-and-jam; "from" says
    whether the schedule file's entry or the command line chose them."""
    entry = entry or {}
    origin = entry.get("origin") or ("schedule file" if entry.get("options") or "schedule" in entry
                                     else "command line")
    if "schedule" in entry:
        return {"schedule": "user", "parallel": list(entry.get("parallel", [])),
                "unroll_jam": bool(entry.get("options", {}).get("unroll_jam", False)), "from": origin}
    out = {"tile_sizes": list(sched.tile_sizes) if sched.tile else []}
    if sched.tile and sched.two_member_tile is not None:
        out["two_member_tile_sizes"] = list(sched.two_member_tile)
    out.update(fusion=sched.fusion, parallel=sched.parallel, unroll_jam=sched.unroll_jam, **{"from": origin})
    return out
