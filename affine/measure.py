"""Timing backends of sweeps and the autotuner: what one timed run of a program measures.

On a shared machine the wall-clock time of a run mostly measures the other processes: a 2-thread program on 2
busy cores waits for a CPU for most of its life, so the same binary's runs differ by 30 to 90 % (issue 21). What
a schedule changes is the work its threads do; per-task counters of the kernel (perf_event_open(2)) count a
task's events only while it runs on a CPU, so time spent waiting for one does not enter them.

Measures (`SweepConfig.measure`, `pgcc --autotune --measure=`):

- "cycles": hardware CPU cycles (user space) of the program's tasks, counted by perf_event_open; needs a PMU
  (most virtual machines have none: the event is refused with ENOENT).
- "task-clock": the kernel's software clock of the program's tasks (nanoseconds on a CPU, from the scheduler's
  clock; no PMU needed, allowed for one's own children at perf_event_paranoid <= 2).
- "wall": the wall-clock time of the run (or the program's own clock, Kernel.timer): the fallback when
  perf_event_open is refused (paranoid 3, a seccomp filter, an old kernel) or the platform is not Linux.
- "auto" (the default): the first of cycles, task-clock, wall that this machine allows (`available()`).

The objective for a parallel program (why not the sum over threads): the sum of the counts of all threads is the
CPU work, not the elapsed time: a 2-thread variant does at least the work of the sequential one, so a sum would
prefer sequential variants for being sequential. The elapsed time on a dedicated machine is the time of the
slowest thread. Each run opens two counters on the program: one on its main thread alone (inherit=0) and one
on the main thread and every thread it creates (inherit=1, OpenMP's workers included; their counts are added
when they exit); the workers' share is total - main. The run's value is max(main, (total - main) / (T - 1)) for T
= OMP_NUM_THREADS threads when workers ran (exactly the slowest thread's count for T = 2, the workers' mean for
more), and main when none ran (a sequential variant). Runs use OMP_WAIT_POLICY=passive, so a thread that
waits at a barrier sleeps instead of spinning: with spinning, a thread whose partner was preempted by another
process burns cycles for as long as the partner waits for a CPU, which is the machine's load again. What this
measure misses, by construction: the cost of waking threads at barriers (small next to kernels of milliseconds;
it would need wall time on a quiet machine), and load imbalance that changes sides between parallel loops (the
slowest thread overall is not the sum of each loop's slowest thread). Cycles are converted to seconds nowhere:
a run's value is then a count, compared only with counts of the same kernel on the same machine.

Runs are started through `/bin/sh -c 'read _ && exec "$@" </dev/null'`: the shell waits until the counters are
opened on its pid with enable_on_exec, then execs the program, so the counts start at the program's first
instruction and cover nothing of the shell or of Python. (A program whose Kernel.timer reports the CPU seconds of
its timed region, see sweep.Kernel, is judged by that region with the same per-task clocks.)
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource
import struct
import subprocess
import sys
import time
from dataclasses import dataclass

MEASURES = ("auto", "cycles", "task-clock", "wall")
# perf_event_attr.type / .config (linux/perf_event.h)
_HARDWARE, _SOFTWARE = 0, 1
_EVENTS = {"cycles": (_HARDWARE, 0), "instructions": (_HARDWARE, 1), "task-clock": (_SOFTWARE, 1)}
# perf_event_attr flag bits: disabled, inherit, exclude_kernel, exclude_hv, enable_on_exec
_DISABLED, _INHERIT, _EXCLUDE_KERNEL, _EXCLUDE_HV, _ENABLE_ON_EXEC = 1, 1 << 1, 1 << 5, 1 << 6, 1 << 12
_FD_CLOEXEC = 8  # PERF_FLAG_FD_CLOEXEC: the descriptors do not leak into programs other threads start
_SYSCALL = {"x86_64": 298, "aarch64": 241, "ppc64le": 319, "s390x": 331, "riscv64": 241}
# the shell reads the go-ahead on its stdin, then becomes the program with /dev/null as stdin
_LAUNCHER = ["/bin/sh", "-c", 'read _ && exec "$@" </dev/null', "sh"]


class _Attr(ctypes.Structure):
    """struct perf_event_attr up to PERF_ATTR_SIZE_VER5 (112 bytes), the fields this module sets."""
    _fields_ = [("type", ctypes.c_uint32), ("size", ctypes.c_uint32), ("config", ctypes.c_uint64),
                ("sample_period", ctypes.c_uint64), ("sample_type", ctypes.c_uint64),
                ("read_format", ctypes.c_uint64), ("flags", ctypes.c_uint64), ("wakeup_events", ctypes.c_uint32),
                ("bp_type", ctypes.c_uint32), ("config1", ctypes.c_uint64), ("config2", ctypes.c_uint64),
                ("branch_sample_type", ctypes.c_uint64), ("sample_regs_user", ctypes.c_uint64),
                ("sample_stack_user", ctypes.c_uint32), ("clockid", ctypes.c_int32),
                ("sample_regs_intr", ctypes.c_uint64), ("aux_watermark", ctypes.c_uint32),
                ("sample_max_stack", ctypes.c_uint16), ("reserved", ctypes.c_uint16)]


_LIBC = None


def perf_event_open(event: str, pid: int = 0, *, inherit: bool = False, on_exec: bool = False) -> int:
    """A file descriptor counting `event` ("cycles", "instructions", "task-clock") of task `pid` (0: the calling
    thread) on any CPU, user space only; with `inherit`, of the threads and processes it creates afterwards too;
    with `on_exec`, disabled until the task's next execve. Read it with read_counter.

    Raises:
        OSError: the kernel refused (errno ENOENT/EOPNOTSUPP: no such event, e.g. no PMU in a virtual machine;
            EACCES/EPERM: perf_event_paranoid or a seccomp filter; ENOSYS: no perf_event_open) or this is not
            Linux on a known architecture.
    """
    global _LIBC
    nr = _SYSCALL.get(platform.machine())
    if not sys.platform.startswith("linux") or nr is None:
        raise OSError(errno.ENOSYS, f"perf_event_open: not available on {sys.platform}/{platform.machine()}")
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    kind, config = _EVENTS[event]
    attr = _Attr(type=kind, size=ctypes.sizeof(_Attr), config=config,
                 flags=_EXCLUDE_KERNEL | _EXCLUDE_HV | (_INHERIT if inherit else 0)
                 | (_DISABLED | _ENABLE_ON_EXEC if on_exec else 0))
    _LIBC.syscall.restype = ctypes.c_long
    fd = _LIBC.syscall(ctypes.c_long(nr), ctypes.byref(attr), ctypes.c_int(pid), ctypes.c_int(-1),
                       ctypes.c_int(-1), ctypes.c_ulong(_FD_CLOEXEC))
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, f"perf_event_open({event}): {os.strerror(e)}")
    return fd


def read_counter(fd: int) -> int:
    """The count of a perf_event_open descriptor (read_format 0: one u64)."""
    return struct.unpack("Q", os.read(fd, 8))[0]


_AVAILABLE: dict = {}


def available(measure: str) -> tuple:
    """(whether `measure` works here, why not): opens its counter on this thread once and caches the answer.
    "wall" always works; "auto" is available when any of them is."""
    if measure in ("wall", "auto"):
        return True, ""
    if measure not in _AVAILABLE:
        try:
            os.close(perf_event_open(measure, 0, inherit=True))
            _AVAILABLE[measure] = (True, "")
        except OSError as e:
            _AVAILABLE[measure] = (False, str(e))
    return _AVAILABLE[measure]


def resolve(measure: str) -> str:
    """The measure a run uses for `measure`: itself when available, "auto" -> the first available of cycles,
    task-clock, wall.

    Raises:
        ValueError: an unknown measure, or a counter measure this machine refuses (the message says why:
            run with measure="auto" or "wall" instead).
    """
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}: expected one of {', '.join(MEASURES)}")
    if measure == "auto":
        return next(m for m in ("cycles", "task-clock", "wall") if available(m)[0])
    ok, why = available(measure)
    if not ok:
        raise ValueError(f"measure {measure!r} is not available on this machine ({why}); use 'auto' or 'wall'")
    return measure


def fallback_note(measure: str) -> str:
    """A line saying which measure "auto" fell back to and why (empty when cycles are available)."""
    if measure != "auto" or available("cycles")[0]:
        return ""
    got = resolve("auto")
    return f"timing by {got}: hardware cycles are not available ({available('cycles')[1]})" + (
        "" if got == "task-clock" else f"; task-clock neither ({available('task-clock')[1]})")


@dataclass
class Run:
    """One timed run: `value` (the objective: slowest thread's count for counters, seconds for wall), `wall`
    seconds, `cpu` seconds (user + system of the program, getrusage), `main` and `total` counts (None for wall),
    the `returncode` and the program's `stdout` (text, when captured)."""
    value: float
    wall: float
    cpu: float
    main: int | None
    total: int | None
    returncode: int
    stdout: str


def slowest_thread(main: int, total: int, threads: int) -> float:
    """The count of the slowest thread: max(main, workers' mean) with the workers' counts total - main spread
    over threads - 1 workers; main alone when no worker ran (a worker share below 1 % of main's: libomp's start
    alone). For threads = 2 it is exact."""
    workers = max(0, total - main)
    if threads <= 1 or workers < 0.01 * main:
        return float(main)
    return float(max(main, workers / (threads - 1)))


def timed_run(argv: list, env: dict, measure: str, threads: int, timeout: float, capture: bool) -> Run:
    """Run `argv` once under `measure` (already resolved: cycles, task-clock or wall) with environment `env`
    (OMP_WAIT_POLICY=passive is added for counters, see the module's docstring).

    Raises:
        subprocess.TimeoutExpired: the run exceeded `timeout` seconds (the program is killed).
    """
    out = subprocess.PIPE if capture else subprocess.DEVNULL
    if measure == "wall":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        r = subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL, env=env, timeout=timeout, text=True)
        wall = time.perf_counter() - t0
        return Run(wall, wall, _cpu_since(before), None, None, r.returncode, r.stdout or "")
    env = dict(env, OMP_WAIT_POLICY="passive")
    rd, wr = os.pipe()
    fds = []
    try:
        p = subprocess.Popen(_LAUNCHER + list(argv), stdin=rd, stdout=out, stderr=subprocess.DEVNULL, env=env,
                             text=True)
        os.close(rd)
        rd = -1
        try:
            fds = [perf_event_open(measure, p.pid, on_exec=True),
                   perf_event_open(measure, p.pid, inherit=True, on_exec=True)]
        except OSError:
            p.kill()
            p.wait()
            raise
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            os.write(wr, b"go\n")
        except BrokenPipeError:  # the shell is gone (killed from outside): its exit status says so
            pass
        try:
            stdout, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise
        wall = time.perf_counter() - t0
        main, total = (read_counter(fd) for fd in fds)
        return Run(slowest_thread(main, total, threads), wall, _cpu_since(before), main, total, p.returncode,
                   stdout or "")
    finally:
        for fd in fds + [wr] + ([rd] if rd >= 0 else []):
            os.close(fd)


def _cpu_since(before) -> float:
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (now.ru_utime - before.ru_utime) + (now.ru_stime - before.ru_stime)
