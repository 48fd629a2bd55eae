"""Issue 21: the timing backend of sweeps and the autotuner (affine/measure.py). Per-task counters
(perf_event_open: hardware cycles, else the kernel's task-clock) grow with the work a program does, count the
slowest thread of a parallel program rather than the sum over its threads, take a program's own report of its
timed region, and fall back to wall time when the kernel refuses perf_event_open."""

import errno
import sys

import pytest

from conftest import build_pgcc

from polygeist_py.affine import measure
from polygeist_py.affine import sweep as sw

COUNTER = next((m for m in ("cycles", "task-clock") if measure.available(m)[0]), None)
needs_counters = pytest.mark.skipif(COUNTER is None, reason="perf_event_open refused here: "
                                    + measure.available("task-clock")[1])

# A stencil-like sweep of a 2-D array, repeated argv[1] times: each sweep's loop nest is parallel
SWEEPS = r"""
#include <stdio.h>
#include <stdlib.h>
#define N 700
static double grid[N][N];

static void relax(int n, double g[n][n])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      g[i][j] = 0.5 * g[i][j] + 0.25 * (i % 7) + 0.125 * (j % 5);
}

int main(int argc, char **argv)
{
  int r, reps = argc > 1 ? atoi(argv[1]) : 1;
  for (r = 0; r < reps; r++)
    relax(N, grid);
  printf("%.6f\n", grid[N - 1][N - 2]);
  return 0;
}
"""


def _env(threads):
    return dict(sw._env(threads))


def test_slowest_thread_is_not_the_sum_over_threads():
    assert measure.slowest_thread(100, 100, 2) == 100  # no worker ran: a sequential program
    assert measure.slowest_thread(100, 100.5, 2) == 100  # libomp's start-up alone is no worker's work
    assert measure.slowest_thread(60, 200, 2) == 140  # the worker is the slowest thread
    assert measure.slowest_thread(100, 180, 2) == 100
    assert measure.slowest_thread(50, 350, 4) == 100  # more workers: their mean


@pytest.fixture(scope="module")
def sweeps_programs(tmp_path_factory):
    d = tmp_path_factory.mktemp("counters")
    src = d / "sweeps.c"
    src.write_text(SWEEPS)
    par, seq = d / "par", d / "seq"
    build_pgcc(src, par, extra=("-O3",))
    build_pgcc(src, seq, extra=("-O3", "--no-parallel"))
    return src, par, seq


@needs_counters
def test_counters_grow_with_the_work(sweeps_programs):
    _, _, seq = sweeps_programs
    small = min(measure.timed_run([str(seq), "10"], _env(1), COUNTER, 1, 60, False).value for _ in range(2))
    large = min(measure.timed_run([str(seq), "80"], _env(1), COUNTER, 1, 60, False).value for _ in range(2))
    # 8 times the sweeps (start-up and the output are the same): at least 3 times the count
    assert large > 3 * small > 0


@needs_counters
def test_a_parallel_run_counts_its_slowest_thread(sweeps_programs):
    _, par, seq = sweeps_programs
    p = measure.timed_run([str(par), "60"], _env(2), COUNTER, 2, 60, True)
    s = measure.timed_run([str(seq), "60"], _env(2), COUNTER, 2, 60, True)
    assert p.returncode == s.returncode == 0 and p.stdout == s.stdout
    # the worker thread did a share of the sweeps, and the value is one thread's count, not the sum
    assert p.total - p.main > 0.2 * p.main
    assert p.value == max(p.main, p.total - p.main) < p.total
    # a sequential program's only thread is its main thread
    assert s.total - s.main < 0.01 * s.main and s.value == s.main


def test_a_timer_reporting_its_region_is_judged_by_the_region(tmp):
    """Kernel.timer groups main/total (CPU seconds of the main thread and of all threads during the timed
    region): counters take the slowest thread of that region; wall takes the region's wall time."""
    line = "region-seconds 0.5 main 0.2 total 0.6"
    k = sw.Kernel(str(tmp / "k.c"), args=("-c", f"print({line!r})"),
                  timer=r"region-seconds (?P<wall>\S+) main (?P<main>\S+) total (?P<total>\S+)")
    status, values, _, walls, used = sw._time(sys.executable, k, sw.SweepConfig(threads=2, measure="wall"), 2)
    assert (status, values, walls, used) == (sw.OK, [0.5, 0.5], [0.5, 0.5], "wall")
    if COUNTER is not None:
        status, values, _, walls, used = sw._time(sys.executable, k, sw.SweepConfig(threads=2), 2)
        assert (status, walls, used) == (sw.OK, [0.5, 0.5], "task-clock") and values == pytest.approx([0.4, 0.4])


@pytest.fixture
def perf_refused(monkeypatch):
    """perf_event_open as under perf_event_paranoid=3 or a seccomp filter: EACCES for every event."""
    def refuse(event, pid=0, **kw):
        raise OSError(errno.EACCES, f"perf_event_open({event}): Permission denied")
    monkeypatch.setattr(measure, "perf_event_open", refuse)
    monkeypatch.setattr(measure, "_AVAILABLE", {})


def test_refused_counters_fall_back_to_wall_time(perf_refused, sweeps_programs):
    assert measure.resolve("auto") == "wall"
    assert "Permission denied" in measure.fallback_note("auto")
    with pytest.raises(ValueError, match="'task-clock' is not available on this machine.*Permission denied"):
        measure.resolve("task-clock")
    src, _, _ = sweeps_programs
    k = sw.Kernel(str(src), args=("5",))
    res = sw.sweep([k], [sw.Variant()], config=sw.SweepConfig(reps=2), serial=True, progress=False)
    (row,) = res.rows
    assert row["status"] == sw.OK and row["measure"] == "wall" and row["times"] == row["wall_times"]
    # asked for explicitly, a refused counter is a failed row that says why, not a crash
    res = sw.sweep([k], [sw.Variant(parallel=False)], config=sw.SweepConfig(reps=2, measure="cycles"),
                   serial=True, progress=False)
    assert res.rows[0]["status"] == sw.RUN_ERROR and "not available" in res.rows[0]["message"]


def test_unknown_measure_is_refused():
    with pytest.raises(ValueError, match="measure 'cpu'"):
        sw.SweepConfig(measure="cpu")


def test_pgcc_refuses_an_unknown_or_refused_measure(perf_refused, tmp):
    from types import SimpleNamespace

    from conftest import PROGRAMS, run_pgcc
    from polygeist_py.affine import autotune as at
    from polygeist_py.errors import CompileError
    gemm = PROGRAMS / "polybench" / "gemm.c"
    r = run_pgcc(["-O3", "--autotune-measure=cpu", str(gemm), "-o", str(tmp / "g")])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip() == "pgcc: error: --autotune-measure expects auto, cycles, task-clock or wall, not 'cpu'"
    # a counter the kernel refuses is an error before any tuning (this process: perf_event_open refused)
    o = SimpleNamespace(scheduler=None, clang_args=[], autotune_measure="task-clock")
    with pytest.raises(CompileError, match="--autotune-measure=task-clock: measure 'task-clock' is not available"):
        at.autotune_for_driver(str(gemm), o, None, 2)
