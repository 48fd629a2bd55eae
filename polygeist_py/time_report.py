"""`--time-report` (as clang's -ftime-report): wall and CPU time of each stage of a compilation.

The driver, the stage sequence, the pass pipelines and the back end wrap their work in ``phase(name, group)``.
Phases nest; each row of the report holds a phase's *own* time (time spent in nested phases is charged to them),
so the rows add up to the time spent inside phases, and the "other" row holds what no phase claimed (argument
parsing, temporary directories...). CPU time counts this process's threads (``time.process_time``) plus the
subprocesses that finished meanwhile (opt, llc, cc: ``RUSAGE_CHILDREN``).

When no report is active (the default) ``phase`` returns a shared no-op context manager: the hooks cost a
function call each. The phases' names also serve `-v` (verbose.py) and the progress line (progress.py).
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
import time

_NULL = contextlib.nullcontext()


def _cpu() -> tuple[float, float]:
    """(CPU seconds of this process, CPU seconds of its reaped children)."""
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), ch.ru_utime + ch.ru_stime


def process_start_wall() -> float | None:
    """The `time.time()` at which this process started (from /proc), or None where /proc is not available."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        start_ticks = int(fields[19])  # field 22 of stat(5), counted after the ")" of the command name
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return time.time() - uptime + start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class TimeReport:
    """Accumulates the own wall and CPU time of named phases (seconds, floats)."""

    def __init__(self) -> None:
        self.rows: dict[str, list] = {}   # name -> [group, wall, cpu, child_cpu, count]
        self._stack: list[list] = []      # per open phase: [name, wall0, cpu0, child0, nested wall, cpu, child]
        self.start_wall = time.perf_counter()
        self.start_cpu = _cpu()

    def add(self, name: str, group: str, wall: float, cpu: float, child: float) -> None:
        """Charge `wall`/`cpu`/`child` seconds to the row `name` (created in `group` on first use)."""
        row = self.rows.setdefault(name, [group, 0.0, 0.0, 0.0, 0])
        row[1] += wall
        row[2] += cpu
        row[3] += child
        row[4] += 1

    @contextlib.contextmanager
    def phase(self, name: str, group: str = ""):
        """Time the body as phase `name` (its own time: nested phases are charged to themselves)."""
        cpu0, child0 = _cpu()
        entry = [name, time.perf_counter(), cpu0, child0, 0.0, 0.0, 0.0]
        self._stack.append(entry)
        try:
            yield
        finally:
            self._stack.pop()
            cpu1, child1 = _cpu()
            wall = time.perf_counter() - entry[1]
            cpu, child = cpu1 - cpu0, child1 - child0
            self.add(name, group, wall - entry[4], cpu - entry[5], child - entry[6])
            if self._stack:
                parent = self._stack[-1]
                parent[4] += wall
                parent[5] += cpu
                parent[6] += child

    def totals(self) -> tuple[float, float, float]:
        """(wall, own CPU, children's CPU) seconds since the report started."""
        cpu, child = _cpu()
        return time.perf_counter() - self.start_wall, cpu - self.start_cpu[0], child - self.start_cpu[1]

    def render(self, startup: tuple[float, float] | None = None) -> str:
        """The report as a table (one row per phase, grouped, in first-use order; totals last).

        Args:
            startup: (wall, CPU) seconds from the process's start to the report's start (Python and the driver's
                own imports), shown as its own row, or None.
        """
        wall, cpu, child = self.totals()
        rows = [(g, n, w, c, ch, k) for n, (g, w, c, ch, k) in self.rows.items()]
        used = (sum(r[2] for r in rows), sum(r[3] for r in rows), sum(r[4] for r in rows))
        rows.append(("", "other (driver)", max(wall - used[0], 0.0), max(cpu - used[1], 0.0),
                     max(child - used[2], 0.0), 1))
        if startup is not None:
            rows.insert(0, ("", "startup (Python, driver imports)", startup[0], startup[1], 0.0, 1))
            wall, cpu = wall + startup[0], cpu + startup[1]
        groups: dict[str, list] = {}
        for r in rows:
            groups.setdefault(r[0], []).append(r)
        total_cpu = cpu + child
        lines = ["===" + "-" * 77 + "===",
                 "                      pgcc compilation time report",
                 "===" + "-" * 77 + "===",
                 f"  Total wall time: {wall:.4f} s, CPU time: {total_cpu:.4f} s "
                 f"(pgcc {cpu:.4f} s + subprocesses {child:.4f} s)",
                 "",
                 f"  {'---Wall Time---':>17}  {'---CPU Time---':>17}  {'-Subprocess CPU-':>17}  {'calls':>5}  Name"]

        def fmt(n: str, w: float, c: float, ch: float, k: int, indent: str) -> str:
            pw = 100 * w / wall if wall > 0 else 0.0
            pc = 100 * c / cpu if cpu > 0 else 0.0
            return (f"  {w:8.4f} ({pw:5.1f}%)  {c:8.4f} ({pc:5.1f}%)  {ch:8.4f}{'':9}  {k:5d}  {indent}{n}")

        for g, members in groups.items():
            if g:
                lines.append(fmt(g + ":", sum(m[2] for m in members), sum(m[3] for m in members),
                                 sum(m[4] for m in members), sum(m[5] for m in members), ""))
            for _, n, w, c, ch, k in members:
                lines.append(fmt(n, w, c, ch, k, "    " if g else ""))
        lines.append(fmt("Total", wall, cpu, child, 0, "").replace("      0  Total", "         Total"))
        return "\n".join(lines)


_current: TimeReport | None = None


def start() -> TimeReport:
    """Begin collecting phases of this process (``--time-report``); returns the report."""
    global _current
    _current = TimeReport()
    return _current


def stop() -> TimeReport | None:
    """Stop collecting; returns the report that was active (or None)."""
    global _current
    report, _current = _current, None
    return report


_listeners: list = []


def add_listener(fn) -> None:
    """Call ``fn(name, group)`` whenever a phase begins, report or not (pgcc -v lists the stages as they run,
    progress.py shows the current one)."""
    _listeners.append(fn)


def remove_listener(fn) -> None:
    """Undo add_listener(fn)."""
    if fn in _listeners:
        _listeners.remove(fn)


def phase(name: str, group: str = ""):
    """A context manager timing its body as phase `name` of `group` when a report is active; else a no-op.
    Listeners (add_listener) hear of its start either way."""
    for fn in _listeners:
        fn(name, group)
    if _current is None:
        return _NULL
    return _current.phase(name, group)


def print_report(report: TimeReport, startup_wall0: float | None = None, file=None) -> None:
    """Print `report` to `file` (stderr). `startup_wall0`: the process's start (time.time()), to show startup."""
    startup = None
    if startup_wall0 is not None:
        # the process's CPU before the report started: interpreter start-up and the driver's imports
        startup = (max(time.time() - startup_wall0 - report.totals()[0], 0.0), report.start_cpu[0])
    print(report.render(startup), file=file or sys.stderr)
