"""Schedule and tile-size sweeps: compile, check and time many variants of many kernels, on Dask or serially.

Command line: `python -m polygeist_py.affine.sweep gemm.c -DNI=500 --tile-sizes default 16,16,16 --parallel on off
--csv out.csv` (see --help).

A sweep is the cross product of kernels (C programs that print their results) and variants (the polyhedral
stage's choices: tile sizes per band member, fusion policy, parallel loops on/off, unroll-and-jam on/off, for the
whole file or per SCoP, user schedules per SCoP, and macro definitions such as problem sizes). For every pair it

1. checks legality before compiling: a user schedule is checked against the SCoP's dependences in the worker
   (legality.check / mark_dims_parallel, as the polyhedral stage does); a computed schedule is checked by the
   stage itself before code generation (pgcc fails, the variant is reported "illegal");
2. compiles the variant with pgcc (`-O3 --tile-sizes= --fusion= --no-parallel --no-unroll-jam --schedule=`);
3. runs it once and compares its output with the untransformed program's (`-O3 --no-polyhedral`, compiled and
   run once per kernel and macro set): byte-equal, or equal within `rtol` for every number when rtol > 0;
4. times it: `reps` runs, median, minimum and noise (relative spread (max - min) / median), OMP_NUM_THREADS
   pinned with OMP_PROC_BIND=close / OMP_PLACES=cores; on a cluster, the runs of one machine hold its lock and
   `threads` of its cores (`machine_slot`), so that two workers never time programs at once and no compile
   (which holds one core, `compile_slot`) runs on the cores a timed program's threads are pinned to.

Distribution is Dask's (`dask.distributed`, the optional extra `polygeist-py[distributed]`): one task per
reference and per variant, the variant tasks depending on their reference. A LocalCluster is started by
default (one single-threaded worker per core with the resource `pgcc-timing=1`, so that a worker runs one
timing job at a time); pass `scheduler="tcp://host:port"` or a `distributed.Client` for a real cluster (give its
workers `--resources pgcc-timing=1 --nthreads 1` to keep one timing job per worker). Kernel sources travel with
the tasks (their directory is added as -I for headers, which must then exist on the workers at the same path).

Fault tolerance: every subprocess (compile, run) has a timeout, so a hung variant is reported "timeout";
a worker that dies is replaced by the cluster (its nanny) and its tasks retried by Dask's scheduler
(distributed.scheduler.allowed-failures); a task that fails that way is run once more alone after the others
(tasks that merely shared the dying worker then pass), and reported "worker-died" if it kills a worker again.
Results are appended to a journal (JSON lines, flushed and fsynced per row) as they arrive, so nothing measured
is lost; a sweep started again with the same journal skips what is recorded there (resume), except
"worker-died" rows, which run again.

Worker processes start by spawning, so a script that calls sweep() must guard its top level with
`if __name__ == "__main__":`, as for any Dask LocalCluster.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from . import measure

TIMING_RESOURCE = "pgcc-timing"
# statuses of a result row
OK, ILLEGAL, COMPILE_ERROR, WRONG_OUTPUT, RUN_ERROR, TIMEOUT, WORKER_DIED = (
    "ok", "illegal", "compile-error", "wrong-output", "run-error", "timeout", "worker-died")
RETRIED_ON_RESUME = (WORKER_DIED,)
TIME_FIELDS = ("times", "median_s", "min_s", "noise", "compile_s", "worker", "reference_median_s",
               "reference_noise", "wall_times")


@dataclass(frozen=True)
class Kernel:
    """A C program to sweep: `path`, `defines` ((name, value) pairs, e.g. problem sizes), `name` (default: the
    file's stem), `args` passed to the program when it runs, `flags` further pgcc flags of every build (-I,
    -std=, ...), `timer`: a regular expression whose first group is the seconds the program measured itself
    (e.g. r"kernel-seconds ([0-9.e-]+)", or a group named `wall`); lines matching it are left out of the output
    check. Without a timer, a run's time is the wall-clock time of the whole process. A timer may also have
    groups named `main` and `total`: the CPU seconds of the program's main thread and of all its threads
    during the region it times (clock_gettime's CLOCK_THREAD_CPUTIME_ID and CLOCK_PROCESS_CPUTIME_ID); the
    counter measures (SweepConfig.measure) then judge that region alone instead of the whole process."""
    path: str
    defines: tuple = ()
    name: str = ""
    args: tuple = ()
    flags: tuple = ()
    timer: str = ""

    def __post_init__(self):
        object.__setattr__(self, "path", os.path.abspath(str(self.path)))
        object.__setattr__(self, "defines", _pairs(self.defines))
        if not self.name:
            object.__setattr__(self, "name", os.path.splitext(os.path.basename(self.path))[0])


@dataclass(frozen=True)
class Variant:
    """One point of the variant space, as pgcc's polyhedral flags.

    tile_sizes: sizes per band member, outermost first, the last one for the innermost member (--tile-sizes=);
        None for pgcc's default (32, and 32 x 512 for two-member bands), () for no tiling (--no-tiling);
    fusion: "max" | "smart" | "none" (--fusion=), None for the default (smart);
    parallel: parallel loops (False: --no-parallel); unroll_jam: unroll-and-jam (False: --no-unroll-jam);
    schedules: schedule file entries per SCoP (--schedule=, user_schedule.py): user schedules
        {scop name: {"schedule": isl union map text, "parallel": [dims]}} and/or options that replace the flags
        above for that SCoP alone ({"tile_sizes": [16, 16], "fusion": "none", "parallel": false,
        "unroll_jam": false}); stored as JSON text so that a Variant stays hashable;
    defines: extra macro definitions ((name, value) pairs), e.g. a problem size.
    """
    tile_sizes: tuple | None = None
    fusion: str | None = None
    parallel: bool = True
    unroll_jam: bool = True
    schedules: str | None = None
    defines: tuple = ()

    def __post_init__(self):
        if self.tile_sizes is not None:
            object.__setattr__(self, "tile_sizes", tuple(int(t) for t in self.tile_sizes))
        if isinstance(self.schedules, dict):
            object.__setattr__(self, "schedules", json.dumps(self.schedules, sort_keys=True))
        object.__setattr__(self, "defines", _pairs(self.defines))
        if self.fusion not in (None, "max", "smart", "none"):
            raise ValueError(f"fusion policy {self.fusion!r}: expected max, smart or none")

    def flags(self) -> list:
        """pgcc's flags for this variant (without --schedule=, which needs a file: see compile_variant)."""
        out = []
        if self.tile_sizes == ():
            out.append("--no-tiling")
        elif self.tile_sizes is not None:
            out.append("--tile-sizes=" + ",".join(map(str, self.tile_sizes)))
        if self.fusion:
            out.append(f"--fusion={self.fusion}")
        if not self.parallel:
            out.append("--no-parallel")
        if not self.unroll_jam:
            out.append("--no-unroll-jam")
        return out

    @property
    def key(self) -> str:
        """A stable text naming the variant (its flags; user schedules by a hash of their text)."""
        parts = self.flags() + [f"{name}[{_entry_key(e)}]" for name, e in sorted(self.entries().items())]
        parts = (parts or ["default"]) + [f"-D{k}={v}" for k, v in self.defines]
        return " ".join(parts)

    def entries(self) -> dict:
        """{scop name: schedule file entry} of `schedules` ({} without)."""
        return json.loads(self.schedules) if self.schedules else {}

    def user_schedules(self) -> dict:
        """The entries of `schedules` that impose a user schedule (the others only set options)."""
        return {n: e for n, e in self.entries().items() if "schedule" in e or "statements" in e}

    def scop_entry(self, scop: str) -> dict:
        """The schedule file entry that gives SCoP `scop` alone what this variant gives the whole file: its
        flags as per-SCoP options, then its own entry for `scop` (a user schedule keeps only its own keys: it
        fixes tiling, fusion and parallel loops). {} for pgcc's default."""
        own = dict(self.entries().get(scop, {}))
        if "schedule" in own or "statements" in own:
            return own
        out = {}
        if self.tile_sizes is not None:
            out["tile_sizes"] = list(self.tile_sizes)
        if self.fusion:
            out["fusion"] = self.fusion
        if not self.parallel:
            out["parallel"] = False
        if not self.unroll_jam:
            out["unroll_jam"] = False
        out.update(own)
        return out

    def params(self) -> dict:
        """The variant's parameters as flat columns (for tables and plots)."""
        ts = self.tile_sizes
        return {"tile_sizes": "default" if ts is None else ("none" if ts == () else "x".join(map(str, ts))),
                "fusion": self.fusion or "smart", "parallel": self.parallel, "unroll_jam": self.unroll_jam,
                "user_schedule": bool(self.user_schedules()),
                "per_scop": " ".join(f"{n}[{_entry_key(e)}]" for n, e in sorted(self.entries().items())),
                "defines": " ".join(f"{k}={v}" for k, v in self.defines)}

    def document(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def per_scop(cls, choices: dict) -> "Variant":
        """The variant that gives each SCoP of `choices` ({scop name: Variant}) what that Variant gives a whole
        file (scop_entry), and the other SCoPs pgcc's default; Variant() when every choice is the default."""
        entries = {n: e for n, e in ((n, v.scop_entry(n)) for n, v in choices.items()) if e}
        return cls(schedules=entries or None)

    @classmethod
    def from_document(cls, doc: dict) -> "Variant":
        doc = dict(doc)
        if doc.get("tile_sizes") is not None:
            doc["tile_sizes"] = tuple(doc["tile_sizes"])
        doc["defines"] = tuple(tuple(p) for p in doc.get("defines", ()))
        return cls(**doc)


@dataclass
class SweepConfig:
    """How variants are measured. reps: timed runs per variant (median reported); threads: OMP_NUM_THREADS of
    every run; compile_timeout / run_timeout: seconds before a compile or one run counts as hung ("timeout");
    rtol: 0 for byte-equal output, else the relative tolerance of every printed number; opt: pgcc's -O flag;
    exclusive: on a Dask cluster, a variant's runs (output check and timings) hold a lock of its machine, so that
    two workers of one machine never run programs at the same time (their pinned threads would share cores),
    and reserve `threads` of its `cores` (default: os.cpu_count() of the worker): a compile reserves one, so
    compiles run side by side with each other and with runs that leave them a core, but never on the cores
    a timed run's threads are pinned to (machine_slot, compile_slot).
    measure: what a timed run measures (affine/measure.py): "auto" (the default: hardware cycles where the
    machine has a PMU, else the kernel's task-clock, else wall time when perf_event_open is refused),
    "cycles", "task-clock" or "wall"; counters give the slowest thread's count (CPU seconds for task-clock),
    which waiting for a CPU does not inflate. Every row names the measure it used (`measure`) and keeps the
    runs' wall times (`wall_times`) beside."""
    reps: int = 3
    threads: int = 1
    compile_timeout: float = 300.0
    run_timeout: float = 60.0
    rtol: float = 0.0
    opt: str = "-O3"
    exclusive: bool = True
    cores: int | None = None
    measure: str = "auto"

    def __post_init__(self):
        if self.measure not in measure.MEASURES:
            raise ValueError(f"measure {self.measure!r}: expected one of {', '.join(measure.MEASURES)}")


def _entry_key(entry: dict) -> str:
    """A short text for one SCoP's schedule file entry: its options as flags, a user schedule by a hash."""
    parts = []
    if "schedule" in entry or "statements" in entry:
        text = json.dumps({k: entry[k] for k in ("schedule", "statements", "parallel") if k in entry}, sort_keys=True)
        parts.append("schedule:" + hashlib.sha256(text.encode()).hexdigest()[:12])
    elif "tile_sizes" in entry:
        ts = entry["tile_sizes"]
        parts.append("--tile-sizes=" + ",".join(map(str, ts)) if ts else "--no-tiling")
    if "fusion" in entry:
        parts.append(f"--fusion={entry['fusion']}")
    if entry.get("parallel") is False:
        parts.append("--no-parallel")
    if "unroll_jam" in entry:
        parts.append("--unroll-jam" if entry["unroll_jam"] else "--no-unroll-jam")
    return " ".join(parts) or "default"


def _pairs(defines) -> tuple:
    items = defines.items() if isinstance(defines, dict) else defines
    out = []
    for d in items or ():
        if isinstance(d, str):
            k, _, v = d.partition("=")
            out.append((k, v or "1"))
        else:
            out.append((str(d[0]), str(d[1])))
    return tuple(out)


def _pgcc() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "pgcc")
    return exe if os.path.exists(exe) else (shutil.which("pgcc") or "pgcc")


_WORKDIR = None
_EXE_CACHE: dict = {}  # (kernel, variant, source hash) -> executable path, per worker process
_CHECKED: set = set()  # (executable, reference output hash, rtol) whose output check passed, per worker process


def _workdir() -> str:
    """A directory private to this (worker) process, removed when the process exits."""
    global _WORKDIR
    if _WORKDIR is None or not os.path.isdir(_WORKDIR):
        import atexit
        _WORKDIR = tempfile.mkdtemp(prefix=f"pgcc-sweep-{os.getpid()}-")
        atexit.register(shutil.rmtree, _WORKDIR, True)
    return _WORKDIR


def _source_file(kernel: Kernel, source: str) -> str:
    """The kernel's source, written into this worker's directory (sources travel with the tasks)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    path = os.path.join(_workdir(), f"{kernel.name}-{digest}.c")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(source)
    return path


def _define_flags(defines) -> list:
    return [f"-D{k}={v}" for k, v in defines]


def _env(threads: int) -> dict:
    return dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="close", OMP_PLACES="cores")


def _compile(src: str, kernel: Kernel, flags: list, out: str, timeout: float) -> tuple:
    """(status, message, seconds) of one pgcc build."""
    cmd = [_pgcc(), *flags, *kernel.flags, f"-I{os.path.dirname(kernel.path)}", src, "-o", out]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return TIMEOUT, f"compile exceeded {timeout} s", time.perf_counter() - t0
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        msg = r.stderr.strip()
        return (ILLEGAL if "violat" in msg or "illegal" in msg.lower() else COMPILE_ERROR), msg[-2000:], dt
    return OK, "", dt


def _run(exe: str, kernel: Kernel, cfg: SweepConfig):
    """(status, stdout or message) of one run."""
    try:
        r = subprocess.run([exe, *kernel.args], capture_output=True, text=True, env=_env(cfg.threads),
                           timeout=cfg.run_timeout)
    except subprocess.TimeoutExpired:
        return TIMEOUT, f"run exceeded {cfg.run_timeout} s"
    if r.returncode != 0:
        return RUN_ERROR, f"exit status {r.returncode}: {r.stderr.strip()[-500:]}"
    if kernel.timer:  # the program's own time differs between runs: not part of its output
        return OK, "".join(line for line in r.stdout.splitlines(True) if not re.search(kernel.timer, line))
    return OK, r.stdout


def _time(exe: str, kernel: Kernel, cfg: SweepConfig, reps: int):
    """(status, [values], message, [wall seconds], measure): `reps` runs (output discarded) under the measure
    cfg.measure resolves to on this machine (measure.resolve). A value is the run's wall time (or the
    program's own, Kernel.timer), or, for counters, the count of the slowest thread (measure.slowest_thread;
    task-clock in seconds), of the region the timer's `main`/`total` groups report when it has them."""
    times, walls = [], []
    try:
        used = measure.resolve(cfg.measure)
    except ValueError as e:  # cycles asked for on a machine without a PMU, say: the row says so
        return RUN_ERROR, times, str(e), walls, cfg.measure
    for _ in range(reps):
        try:
            r = measure.timed_run([exe, *kernel.args], _env(cfg.threads), used, cfg.threads, cfg.run_timeout,
                                  capture=bool(kernel.timer))
        except subprocess.TimeoutExpired:
            return TIMEOUT, times, f"run exceeded {cfg.run_timeout} s", walls, used
        if r.returncode != 0:
            return RUN_ERROR, times, f"exit status {r.returncode}", walls, used
        value, wall = (r.value / 1e9 if used == "task-clock" else r.value), r.wall
        if kernel.timer:
            m = re.search(kernel.timer, r.stdout)
            if not m:
                return RUN_ERROR, times, f"no line matching the timer {kernel.timer!r}", walls, used
            groups = m.groupdict()
            wall = float(groups["wall"] if groups.get("wall") else m.group(1))
            if used == "wall":
                value = wall
            elif groups.get("main") and groups.get("total"):  # the program's region, by its per-task clocks
                value = measure.slowest_thread(float(groups["main"]), float(groups["total"]), cfg.threads)
                used = "task-clock"
        times.append(value)
        walls.append(wall)
    return OK, times, "", walls, used


def _this_worker(cfg: SweepConfig):
    """The Dask worker running this task when `cfg.exclusive`, else None (the serial path, or not exclusive)."""
    if not cfg.exclusive:
        return None
    try:
        from distributed import get_worker
        return get_worker()
    except (ImportError, ValueError):  # not on a worker
        return None


_SLOTS: dict = {}  # (kind, name) -> the distributed.Lock / Semaphore of this worker process


def _slot(kind: str, leases: int = 1):
    """This worker's handle on the machine-wide Lock ("timing") or core Semaphore ("cores", `leases` leases),
    created once per process: each handle keeps a periodic lease refresh alive on the worker's event loop."""
    from distributed import Lock, Semaphore
    name = f"{TIMING_RESOURCE}-{socket.gethostname()}" if kind == "timing" else \
        f"pgcc-cores-{leases}-{socket.gethostname()}"
    if (kind, name) not in _SLOTS:
        _SLOTS[kind, name] = Lock(name) if kind == "timing" else Semaphore(max_leases=leases, name=name)
    return _SLOTS[kind, name]


def _cores(cfg: SweepConfig):
    """(this machine's cores as a distributed.Semaphore with one lease per core, shared by its workers by name;
    their number)."""
    n = cfg.cores or os.cpu_count() or 1
    return _slot("cores", n), n


@contextlib.contextmanager
def machine_slot(cfg: SweepConfig):
    """Hold this machine's timing lock (a `distributed.Lock` named after the host) and `cfg.threads` of its cores
    (leases of the host's core semaphore, see compile_slot) while the block runs, when on a Dask worker and
    `cfg.exclusive`; elsewhere (the serial path) do nothing. So the workers of one machine run programs one at a
    time, and no compile shares the cores that the program's pinned threads run on. Lock and leases are
    lease-based: a worker that dies holding them loses them after `distributed.scheduler.locks.lease-timeout`."""
    if _this_worker(cfg) is None:
        yield
        return
    lock = _slot("timing")
    cores, n = _cores(cfg)
    held = 0
    lock.acquire()  # first the lock: two timed runs never wait for each other's cores (no deadlock)
    try:
        for _ in range(min(max(1, cfg.threads), n)):
            cores.acquire()
            held += 1
        yield
    finally:
        for _ in range(held):
            cores.release()
        lock.release()


@contextlib.contextmanager
def compile_slot(cfg: SweepConfig):
    """Hold one of this machine's cores (a lease of its core semaphore) while the block compiles, when on a Dask
    worker and `cfg.exclusive`: compiles then wait while a timed run uses all the cores, and a timed run waits
    for the compiles that occupy the cores it needs (machine_slot)."""
    if _this_worker(cfg) is None:
        yield
        return
    cores, _ = _cores(cfg)
    cores.acquire()
    try:
        yield
    finally:
        cores.release()


def noise(times) -> float | None:
    """Relative spread of repeated timings: (max - min) / median; None for fewer than two."""
    if len(times) < 2:
        return None
    med = statistics.median(times)
    return (max(times) - min(times)) / med if med > 0 else 0.0


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)", re.I)


def same_output(got: str, want: str, rtol: float = 0.0) -> bool:
    """Whether two program outputs agree: byte-equal, or (rtol > 0) equal text between numbers and every number
    within relative tolerance rtol (absolute rtol near zero)."""
    if got == want:
        return True
    if rtol <= 0:
        return False
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        x, y = float(a), float(b)
        if x != y and not abs(x - y) <= rtol * max(1.0, abs(x), abs(y)):
            return False
    return True


def reference(kernel: Kernel, source: str, defines: tuple, cfg: SweepConfig) -> dict:
    """Compile the untransformed program (`opt --no-polyhedral`), run it once for its output and time it.

    Returns {"status", "output", "times", "message"}; runs on a worker."""
    cache_key = ("reference", kernel, defines, cfg.opt, cfg.threads, hashlib.sha256(source.encode()).hexdigest())
    if cache_key in _EXE_CACHE and os.path.exists(_EXE_CACHE[cache_key][0]):
        exe, out = _EXE_CACHE[cache_key]  # this worker built and ran it already (successive halving's rungs)
    else:
        src = _source_file(kernel, source)
        exe = os.path.join(_workdir(), f"{kernel.name}-{_digest(cache_key)}.ref")
        with compile_slot(cfg):
            status, msg, _ = _compile(src, kernel, [cfg.opt, "--no-polyhedral", *_define_flags(defines)], exe,
                                      cfg.compile_timeout)
        if status != OK:
            return {"status": status, "output": None, "times": [], "message": "reference: " + msg}
        with machine_slot(cfg):
            status, out = _run(exe, kernel, cfg)
        if status != OK:
            return {"status": status, "output": None, "times": [], "message": "reference: " + out}
        _EXE_CACHE[cache_key] = (exe, out)
    with machine_slot(cfg):
        status, times, msg, _, _ = _time(exe, kernel, cfg, cfg.reps)
    return {"status": OK, "output": out, "times": times, "message": msg}


def _digest(obj) -> str:
    return hashlib.sha256(repr(obj).encode()).hexdigest()[:12]


def check_user_schedules(kernel: Kernel, src: str, variant: Variant) -> str:
    """'' when every user schedule of `variant` is legal for its SCoP, else the violation (IllegalSchedule's
    message: the dependence and an instance pair). Uses the experiments API's model of the program."""
    from polygeist_py.errors import CompileError

    from . import legality
    from .experiments import load
    docs = variant.user_schedules()
    exp = load(src, defines=dict(kernel.defines + variant.defines),
               include_dirs=[os.path.dirname(kernel.path)], clang_args=list(kernel.flags))
    try:
        for name, entry in docs.items():
            view = exp.scop(name)
            with exp._ctx:
                text = entry["schedule"] if "schedule" in entry else [st["schedule"] for st in entry["statements"]]
                sched = legality.schedule_from_map(view.model, text)
                legality.check(view.model, view.deps, sched, name)
                legality.mark_dims_parallel(view.model, view.deps, sched, entry.get("parallel", []), name)
    except KeyError as e:
        return str(e)
    except CompileError as e:
        return str(e)
    return ""


def compile_variant(kernel: Kernel, source: str, variant: Variant, cfg: SweepConfig) -> tuple:
    """(status, executable or message, compile seconds) for one variant: legality of user schedules first,
    then pgcc. Executables are cached per worker process (re-timing a variant, as successive halving does,
    does not compile it again)."""
    cache_key = (kernel, variant, cfg.opt, hashlib.sha256(source.encode()).hexdigest())
    exe = _EXE_CACHE.get(cache_key)
    if exe and os.path.exists(exe):
        return OK, exe, 0.0
    src = _source_file(kernel, source)
    flags = [cfg.opt, *variant.flags(), *_define_flags(kernel.defines + variant.defines)]
    exe = os.path.join(_workdir(), f"{kernel.name}-{_digest(cache_key)}")
    with compile_slot(cfg):
        if variant.schedules:
            why = check_user_schedules(kernel, src, variant) if variant.user_schedules() else ""
            if why:
                return ILLEGAL, why, 0.0
            sched = exe + ".schedule.json"
            with open(sched, "w") as f:
                json.dump({"scops": [{"name": n, **e} for n, e in json.loads(variant.schedules).items()]}, f)
            flags.append(f"--schedule={sched}")
        status, msg, dt = _compile(src, kernel, flags, exe, cfg.compile_timeout)
    if status != OK:
        return status, msg, dt
    _EXE_CACHE[cache_key] = exe
    return OK, exe, dt


def run_variant(kernel: Kernel, source: str, variant: Variant, ref: dict, cfg: SweepConfig) -> dict:
    """Legality check, compile, output check and timing of one variant; one result row (see Sweep.rows).
    Never raises for a problem of the variant: the row's status says what happened."""
    row = {"kernel": kernel.name, "variant": variant.key, **variant.params(), "threads": cfg.threads,
           "reps": cfg.reps, "status": None, "message": "", "times": [], "median_s": None, "min_s": None,
           "noise": None, "compile_s": None, "worker": _worker_name(), "measure": None, "wall_times": [],
           "reference_median_s": statistics.median(ref["times"]) if ref.get("times") else None,
           "reference_noise": noise(ref.get("times", []))}
    if ref["status"] != OK:
        row.update(status=ref["status"], message=ref["message"])
        return row
    status, exe, dt = compile_variant(kernel, source, variant, cfg)
    row["compile_s"] = round(dt, 4)
    if status != OK:
        row.update(status=status, message=exe)
        return row
    checked = (exe, hashlib.sha256(ref["output"].encode()).hexdigest(), cfg.rtol)
    with machine_slot(cfg):
        if checked not in _CHECKED:  # (else this worker ran this executable and compared its output already)
            status, out = _run(exe, kernel, cfg)
            if status != OK:
                row.update(status=status, message=out)
                return row
            if not same_output(out, ref["output"], cfg.rtol):
                row.update(status=WRONG_OUTPUT, message="output differs from the untransformed program's")
                return row
            _CHECKED.add(checked)
        status, times, msg, walls, used = _time(exe, kernel, cfg, cfg.reps)
    row.update(status=status, message=msg, times=[_round(t) for t in times], measure=used,
               wall_times=[round(t, 6) for t in walls])
    if times:
        row.update(median_s=_round(statistics.median(times)), min_s=_round(min(times)),
                   noise=None if noise(times) is None else round(noise(times), 4))
    return row


def _round(x: float):
    """A run's value as stored: seconds to the microsecond, cycle counts whole."""
    return round(x) if x >= 1e3 else round(x, 6)


def _worker_name() -> str:
    try:
        from distributed import get_worker
        return get_worker().address
    except Exception:  # not on a Dask worker: the serial path
        return "local"


def row_key(kernel_name: str, variant_key: str, threads: int, reps: int | None = None) -> str:
    return f"{kernel_name}|{variant_key}|t{threads}" + ("" if reps is None else f"|r{reps}")


@dataclass
class Sweep:
    """The results of a sweep: `rows`, one dict per (kernel, variant) with the kernel, the variant's key and
    parameters (tile_sizes, fusion, parallel, unroll_jam, user_schedule, defines), status (ok, illegal,
    compile-error, wrong-output, run-error, timeout, worker-died), message, times (seconds), median_s, min_s,
    noise ((max - min) / median), compile_s, worker, and the untransformed program's median and noise."""
    rows: list = field(default_factory=list)
    wall_s: float = 0.0

    def ok(self, kernel: str | None = None) -> list:
        return [r for r in self.rows if r["status"] == OK and (kernel is None or r["kernel"] == kernel)]

    def best(self, kernel: str) -> dict | None:
        """The fastest row of `kernel` whose variant passed the legality and output checks (by median)."""
        rows = [r for r in self.ok(kernel) if r["median_s"] is not None]
        return min(rows, key=lambda r: r["median_s"]) if rows else None

    def machine_noise(self) -> float | None:
        """Median over kernels of the untransformed program's timing noise: what the machine adds."""
        vals = [r["reference_noise"] for r in self.rows if r.get("reference_noise") is not None]
        return statistics.median(vals) if vals else None

    def content(self) -> list:
        """The rows without what differs between runs (times, worker): for comparing two sweeps."""
        out = [{k: v for k, v in r.items() if k not in TIME_FIELDS} for r in self.rows]
        return sorted(out, key=lambda r: (r["kernel"], r["variant"]))

    def to_json(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump({"rows": self.rows, "wall_s": self.wall_s, "machine_noise": self.machine_noise()}, f,
                      indent=1)

    def to_csv(self, path: str) -> None:
        import csv
        cols = list(self.rows[0].keys()) if self.rows else ["kernel", "variant", "status"]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
            w.writeheader()
            for r in self.rows:
                w.writerow({k: (" ".join(map(str, v)) if isinstance(v, list) else v) for k, v in r.items()})

    def plot(self, path: str, x: str = "tile_sizes") -> str:
        """A PNG of median time (with min..max bars) against parameter `x`, one panel per kernel (needs
        matplotlib: `pip install matplotlib`). Returns `path`."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        kernels = sorted({r["kernel"] for r in self.rows})
        fig, axes = plt.subplots(len(kernels) or 1, 1, figsize=(8, 3 * max(1, len(kernels))), squeeze=False)
        for ax, k in zip(axes[:, 0], kernels):
            rows = sorted(self.ok(k), key=lambda r: str(r[x]))
            labels = [f"{r[x]}" + ("" if r["parallel"] else " seq") + ("" if r["unroll_jam"] else " nouj")
                      + ("" if r["fusion"] == "smart" else f" {r['fusion']}")
                      + (f" {r['per_scop']}" if r.get("per_scop") else "") for r in rows]
            meds = [r["median_s"] for r in rows]
            lo = [r["median_s"] - r["min_s"] for r in rows]
            hi = [max(r["times"]) - r["median_s"] for r in rows]
            ax.errorbar(range(len(rows)), meds, yerr=[lo, hi], fmt="o")
            if rows and rows[0]["reference_median_s"]:
                ax.axhline(rows[0]["reference_median_s"], ls="--", c="gray", label="untransformed")
                ax.legend()
            ax.set_xticks(range(len(rows)), labels, rotation=45, ha="right", fontsize=7)
            ax.set_title(k)
            ax.set_ylabel("median s")
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)
        return path


def read_journal(path: str) -> dict:
    """{row key: row} of a results journal (JSON lines; a truncated last line, from a crash, is skipped)."""
    rows = {}
    if not path or not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[row_key(r["kernel"], r["variant"], r["threads"], r.get("reps"))] = r
    return rows


def _space(variants) -> list:
    out = []
    for v in variants:
        out.append(v if isinstance(v, Variant) else Variant(**v))
    return list(dict.fromkeys(out))


def grid(tile_sizes=(None,), fusion=(None,), parallel=(True,), unroll_jam=(True,), schedules=(None,),
         defines=((),)) -> list:
    """The cross product of the given values as Variants (each argument a sequence of one parameter's values)."""
    import itertools
    return [Variant(t, f, p, u, s, d) for t, f, p, u, s, d in
            itertools.product(tile_sizes, fusion, parallel, unroll_jam, schedules, defines)]


def make_client(scheduler=None, n_workers: int | None = None):
    """(client, owned): `scheduler` as a distributed.Client (used as is), an address "tcp://host:port"
    (connected to), or None for a LocalCluster of `n_workers` (default: the number of cores) single-threaded
    worker processes, each with the resource pgcc-timing=1. `owned` says whether sweep() must close it.

    Raises:
        ImportError: dask.distributed is not installed (pip install 'polygeist-py[distributed]').
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ImportError("sweeps on Dask need dask.distributed: pip install 'polygeist-py[distributed]'") from e
    if scheduler is not None and not isinstance(scheduler, str):
        return scheduler, False
    if isinstance(scheduler, str):
        return Client(scheduler), True
    import logging
    cluster = LocalCluster(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           resources={TIMING_RESOURCE: 1}, dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster), True


def sweep(kernels, variants, *, config: SweepConfig | None = None, scheduler=None, n_workers: int | None = None,
          serial: bool = False, journal: str | None = None, progress: bool = True) -> Sweep:
    """Run every variant of every kernel; returns the Sweep (rows in kernel, variant order).

    Args:
        kernels: Kernel objects or paths; variants: Variant objects or dicts of Variant's fields (see grid());
        config: SweepConfig (repetitions, threads, timeouts in seconds, output tolerance);
        scheduler: None (LocalCluster of n_workers), "tcp://host:port", or a distributed.Client;
        serial: run in this process without Dask (the same rows, one variant at a time);
        journal: JSON-lines file of results, appended as each result arrives; rows already there are not run
            again (resume), except worker-died ones;
        progress: Dask's progress bar on stderr while the tasks run (a line per result in serial mode).

    Fault handling: timeouts (config) make a hung compile or run a "timeout" row; a task whose worker dies is
    retried by Dask on another worker, and reported "worker-died" if it kills workers repeatedly (Dask's
    distributed.scheduler.allowed-failures, default 3).

    Raises:
        ImportError: Dask is needed (not serial) and not installed.
        OSError: a kernel file cannot be read.
    """
    cfg = config or SweepConfig()
    kernels = [k if isinstance(k, Kernel) else Kernel(k) for k in kernels]
    variants = _space(variants)
    sources = {k: open(k.path).read() for k in kernels}
    done = read_journal(journal)
    todo, rows = [], {}
    for k in kernels:
        for v in variants:
            key = row_key(k.name, v.key, cfg.threads, cfg.reps)
            if key in done and done[key]["status"] not in RETRIED_ON_RESUME:
                rows[key] = done[key]
            else:
                todo.append((key, k, v))
    t0 = time.perf_counter()
    out = open(journal, "a") if journal else None

    def record(key, row):
        rows[key] = row
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
            os.fsync(out.fileno())

    try:
        if serial or not todo:
            refs = {}
            for n, (key, k, v) in enumerate(todo, 1):
                rk = (k, v.defines)
                if rk not in refs:
                    refs[rk] = reference(k, sources[k], k.defines + v.defines, cfg)
                record(key, run_variant(k, sources[k], v, refs[rk], cfg))
                if progress:
                    r = rows[key]
                    print(f"[{n}/{len(todo)}] {k.name} {v.key}: {r['status']} {r['median_s'] or ''}",
                          file=sys.stderr)
        else:
            _sweep_dask(todo, sources, cfg, scheduler, n_workers, progress, record)
    finally:
        if out:
            out.close()
    order = [row_key(k.name, v.key, cfg.threads, cfg.reps) for k in kernels for v in variants]
    return Sweep([rows[key] for key in order if key in rows], time.perf_counter() - t0)


def _sweep_dask(todo, sources, cfg, scheduler, n_workers, progress, record) -> None:
    from distributed import as_completed

    client, owned = make_client(scheduler, n_workers)
    try:
        info = client.scheduler_info(n_workers=-1) if _accepts_n_workers(client) else client.scheduler_info()
        has_res = any(TIMING_RESOURCE in (w.get("resources") or {}) for w in info.get("workers", {}).values())
        res = {"resources": {TIMING_RESOURCE: 1}} if has_res else {}
        # the untransformed programs first, in parallel; their results (outputs, times) then travel with the
        # variant tasks as values, so that Dask spreads a kernel's variants over all workers instead of keeping
        # them beside the reference's result
        refs, futures = {}, {}
        for key, k, v in todo:
            rk = (k, v.defines)
            if rk not in refs:
                refs[rk] = client.submit(reference, k, sources[k], k.defines + v.defines, cfg, pure=False,
                                         key=f"reference-{k.name}-{_digest((rk, time.time()))}", **res)
        ref_values = {}
        for rk, f in refs.items():
            try:
                ref_values[rk] = f.result()
            except Exception as e:  # the reference's worker kept dying
                ref_values[rk] = {"status": WORKER_DIED, "output": None, "times": [],
                                  "message": f"reference: {type(e).__name__}: {e}"[:500]}
        for key, k, v in todo:
            f = client.submit(run_variant, k, sources[k], v, ref_values[(k, v.defines)], cfg, pure=False,
                              key=f"variant-{k.name}-{_digest((key, time.time()))}", **res)
            futures[f] = (key, k, v)
        try:
            bar = _progress(list(futures), client) if progress else None
        except Exception:  # a convenience: never let it break a sweep (Dask's progress bar API changed)
            bar = None
        died = []
        for f in as_completed(list(futures)):
            key, k, v = futures[f]
            try:
                record(key, f.result())
            except Exception as e:  # KilledWorker (the task's workers died), CancelledError, ...
                died.append((key, k, v, e))
        if bar is not None:
            bar.join(timeout=5)
        # Tasks that were on a worker when it died count as suspects, the innocent as well as the one that killed
        # it: each gets a second chance alone, so that only the culprit is reported.
        for key, k, v, e in died:
            f = client.submit(run_variant, k, sources[k], v, ref_values[(k, v.defines)], cfg, pure=False,
                              key=f"retry-{k.name}-{_digest((key, time.time()))}", **res)
            try:
                record(key, f.result())
            except Exception as e2:
                record(key, _died_row(k, v, cfg, e2))
    finally:
        if owned:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def _died_row(k: Kernel, v: Variant, cfg: SweepConfig, e: Exception) -> dict:
    return {"kernel": k.name, "variant": v.key, **v.params(), "threads": cfg.threads, "reps": cfg.reps,
            "status": WORKER_DIED, "message": f"{type(e).__name__}: {e}"[:500], "times": [], "median_s": None,
            "min_s": None, "noise": None, "compile_s": None, "worker": None, "reference_median_s": None,
            "reference_noise": None}


def _accepts_n_workers(client) -> bool:
    import inspect
    try:
        return "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):
        return False


def _progress(futures, client):
    """Dask's text progress bar for `futures` on stderr (stdout may be the compiler's output), drawn from a
    background thread (the main thread journals results); without a terminal, a line per quarter done."""
    import threading

    from dask.utils import format_time
    from distributed.diagnostics.progressbar import TextProgressBar

    class StderrBar(TextProgressBar):
        quarter = -1

        def _draw_bar(self, remaining, all, **kwargs):
            frac = (1 - remaining / all) if all else 1.0
            line = f"[{'#' * int(self.width * frac):<{self.width}}] | {int(100 * frac)}% Completed | " \
                   f"{format_time(self.elapsed)}"
            if sys.stderr.isatty():
                sys.stderr.write("\r" + line)
            elif int(4 * frac) > self.quarter:
                self.quarter = int(4 * frac)
                sys.stderr.write(f"sweep: {line}\n")
            sys.stderr.flush()

        def _draw_stop(self, **kwargs):
            if sys.stderr.isatty():
                sys.stderr.write("\33[2K\r")
                sys.stderr.flush()

    def draw():
        try:
            StderrBar(futures, scheduler=client.scheduler.address, width=30)
        except Exception:  # the bar is a convenience: never let it break a sweep
            pass
    t = threading.Thread(target=draw, daemon=True, name="pgcc-sweep-progress")
    t.start()
    return t


def main(argv=None) -> int:
    """`python -m polygeist_py.affine.sweep KERNEL.c... [options]`: a sweep from the command line (see --help)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m polygeist_py.affine.sweep",
                                 description="Compile, check and time schedule variants of C kernels on Dask.")
    ap.add_argument("kernels", nargs="+", help="C programs that print their results")
    ap.add_argument("-D", dest="defines", action="append", default=[], help="macro of every build (N=1000)")
    ap.add_argument("--tile-sizes", nargs="*", default=["default"],
                    help="tile size lists (32,32,32), 'default' or 'none'")
    ap.add_argument("--fusion", nargs="*", default=["smart"], choices=["max", "smart", "none"])
    ap.add_argument("--parallel", nargs="*", default=["on"], choices=["on", "off"])
    ap.add_argument("--unroll-jam", nargs="*", default=["on"], choices=["on", "off"])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--measure", choices=measure.MEASURES, default="auto",
                    help="what a run measures: hardware cycles, task-clock (CPU time of the slowest thread), "
                         "wall time; auto: the first available (default)")
    ap.add_argument("--run-timeout", type=float, default=60.0, help="seconds")
    ap.add_argument("--rtol", type=float, default=0.0)
    ap.add_argument("--scheduler", help="tcp://host:port of a Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, help="LocalCluster workers (default: one per core)")
    ap.add_argument("--serial", action="store_true", help="no Dask: one variant at a time in this process")
    ap.add_argument("--journal", help="JSON-lines results file; rows already in it are not run again")
    ap.add_argument("--csv")
    ap.add_argument("--json")
    ap.add_argument("--plot", help="PNG of time against tile sizes (needs matplotlib)")
    a = ap.parse_args(argv)
    if not a.scheduler:  # this machine runs the programs: refuse a measure it does not allow before sweeping
        try:
            measure.resolve(a.measure)
        except ValueError as e:
            ap.error(str(e))
    tiles = [None if t == "default" else () if t == "none" else tuple(int(x) for x in t.split(","))
             for t in a.tile_sizes]
    space = grid(tile_sizes=tiles, fusion=[None if f == "smart" else f for f in a.fusion],
                 parallel=[p == "on" for p in a.parallel], unroll_jam=[u == "on" for u in a.unroll_jam])
    kernels = [Kernel(k, defines=a.defines) for k in a.kernels]
    res = sweep(kernels, space, config=SweepConfig(reps=a.reps, threads=a.threads, run_timeout=a.run_timeout,
                                                   rtol=a.rtol, measure=a.measure),
                scheduler=a.scheduler, n_workers=a.workers, serial=a.serial, journal=a.journal)
    note = measure.fallback_note(a.measure)
    if note:
        print(f"note: {note}", file=sys.stderr)
    for r in res.rows:
        med = f"{r['median_s']:.6f} ({r['measure']})  noise {r['noise']}" if r["median_s"] is not None \
            else r["message"][:80]
        print(f"{r['kernel']:16s} {r['variant']:48s} {r['status']:12s} {med}")
    print(f"{len(res.rows)} variants in {res.wall_s:.1f} s; machine noise {res.machine_noise()}")
    if a.csv:
        res.to_csv(a.csv)
    if a.json:
        res.to_json(a.json)
    if a.plot:
        res.plot(a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
