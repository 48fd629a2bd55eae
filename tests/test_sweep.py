"""Issue 21: schedule sweeps on Dask (affine/sweep.py): a LocalCluster of two workers gives the rows a serial run
gives, a hung variant times out, a worker killed mid-sweep loses nothing measured, a sweep resumes from its
journal, illegal variants are rejected before compiling, wrong outputs are rejected."""

import json
import os

import pytest

from conftest import PROGRAMS

from polygeist_py.affine import sweep as sw

distributed = pytest.importorskip("distributed")

GEMM = PROGRAMS / "polybench" / "gemm.c"

# A small kernel that misbehaves when built as a variant (its executable's name does not end in ".ref", which
# the untransformed reference's does): it hangs, or kills the process that runs it (the Dask worker).
MISBEHAVING = r"""
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifndef N
#define N 16
#endif
static double A[N][N];
int main(int argc, char **argv) {
  int variant = strstr(argv[0], ".ref") == NULL;
#ifdef HANG
  if (variant) for (;;) sleep(1);
#endif
#ifdef KILL_WORKER
  if (variant) kill(getppid(), SIGKILL);
#endif
  const char *log = getenv("SWEEP_RUN_LOG");  /* when and how long each run ran (sweeps' runs are exclusive) */
  struct timespec t0, t1;
  clock_gettime(CLOCK_REALTIME, &t0);
  if (log)
    usleep(40000);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = i * 0.5 + j;
  for (int i = 1; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] += A[i - 1][j];
  printf("%.6f\n", A[N - 1][N - 1]);
  clock_gettime(CLOCK_REALTIME, &t1);
  FILE *f = log ? fopen(log, "a") : NULL;
  if (f) {
    fprintf(f, "%ld.%09ld %ld.%09ld\n", (long)t0.tv_sec, t0.tv_nsec, (long)t1.tv_sec, t1.tv_nsec);
    fclose(f);
  }
  return 0;
}
"""

SPACE = [sw.Variant(), sw.Variant(parallel=False), sw.Variant(tile_sizes=(8, 8, 8), unroll_jam=False)]
CFG = sw.SweepConfig(reps=2, run_timeout=20)


@pytest.fixture(scope="module")
def run_log(tmp_path_factory):
    """The file the kernels' runs append their (start, end) times to (the workers inherit the variable)."""
    path = tmp_path_factory.mktemp("runs") / "runs.log"
    old = os.environ.get("SWEEP_RUN_LOG")
    os.environ["SWEEP_RUN_LOG"] = str(path)
    yield path
    if old is None:
        os.environ.pop("SWEEP_RUN_LOG")
    else:
        os.environ["SWEEP_RUN_LOG"] = old


@pytest.fixture(scope="module")
def client(run_log):
    import dask
    # no retry by Dask (its default allows 3): the sweep gives every task that was on a dying worker a second
    # chance; a lock held by a killed worker is released after 2 s (Dask's default: 30 s)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.scheduler.locks.lease-timeout": "2s",
                          "distributed.scheduler.locks.lease-validation-interval": "0.5s"}):
        c, _ = sw.make_client(None, n_workers=2)
        yield c
        cluster = c.cluster
        c.close()
        cluster.close()


def _kernel(tmp, name, *defines):
    path = tmp / f"{name}.c"
    path.write_text(MISBEHAVING)
    return sw.Kernel(str(path), defines=[(d, 1) for d in defines], name=name)


def test_two_workers_give_the_rows_of_a_serial_run(client, run_log, tmp):
    small = _kernel(tmp, "colsum")
    kernels = [small, sw.Kernel(small.path, defines=[("N", 40)], name="colsum40")]
    space = [SPACE[0], SPACE[2]]
    serial = sw.sweep(kernels, space, config=CFG, serial=True, progress=False)
    run_log.write_text("")
    dist = sw.sweep(kernels, space, config=CFG, scheduler=client, progress=False, journal=str(tmp / "j.jsonl"))
    # the two workers compiled in parallel but never ran programs at the same time (one machine)
    runs = sorted(tuple(map(float, line.split())) for line in run_log.read_text().splitlines())
    assert len(runs) == (2 + 4) * (1 + CFG.reps)  # 2 references and 4 variants: an output check, then the reps
    assert all(end <= start for (_, end), (start, _) in zip(runs, runs[1:])), runs
    assert len(dist.rows) == 4 and all(r["status"] == sw.OK for r in dist.rows)
    assert dist.content() == serial.content()
    assert {r["worker"] for r in dist.rows} <= {w for w in client.scheduler_info()["workers"]}
    assert all(len(r["times"]) == 2 and r["median_s"] > 0 and r["noise"] is not None for r in dist.rows)
    assert dist.best("colsum40")["status"] == sw.OK
    dist.to_csv(str(tmp / "r.csv"))
    dist.to_json(str(tmp / "r.json"))
    assert (tmp / "r.csv").read_text().splitlines()[0].startswith("kernel,variant,")
    assert len(json.loads((tmp / "r.json").read_text())["rows"]) == 4


def test_workers_of_one_machine_run_programs_one_at_a_time(client):
    """Two tasks on the two workers, each holding the machine's slot for half a second, run one after the other
    (and side by side with `exclusive=False`)."""
    def hold(exclusive):  # (a closure: Dask pickles it by value)
        import time
        with sw.machine_slot(sw.SweepConfig(exclusive=exclusive)):
            start = time.time()
            time.sleep(0.5)
            return start, time.time()

    workers = list(client.scheduler_info()["workers"])[:2]
    for exclusive in (True, False):
        futures = [client.submit(hold, exclusive, pure=False, workers=[w]) for w in workers]
        (_, first_end), (second_start, _) = sorted(f.result() for f in futures)
        assert (first_end <= second_start) == exclusive


def test_hung_variant_times_out_and_the_sweep_completes(client, tmp):
    kernels = [_kernel(tmp, "hang", "HANG"), _kernel(tmp, "fine")]
    cfg = sw.SweepConfig(reps=1, run_timeout=2)
    res = sw.sweep(kernels, SPACE[1:2], config=cfg, scheduler=client, progress=False)
    status = {(r["kernel"], r["variant"]): r["status"] for r in res.rows}
    assert status == {("hang", "--no-parallel"): sw.TIMEOUT, ("fine", "--no-parallel"): sw.OK}
    assert "exceeded 2" in res.rows[0]["message"]


def test_killed_worker_keeps_measured_results_and_the_sweep_resumes(client, tmp):
    journal = str(tmp / "journal.jsonl")
    kernels = [_kernel(tmp, "killer", "KILL_WORKER"), _kernel(tmp, "fine")]
    first = sw.sweep(kernels, SPACE[:1], config=CFG, scheduler=client, progress=False, journal=journal)
    status = {(r["kernel"], r["variant"]): r["status"] for r in first.rows}
    assert status == {("killer", "default"): sw.WORKER_DIED, ("fine", "default"): sw.OK}
    assert "KilledWorker" in first.rows[0]["message"]
    client.wait_for_workers(2, timeout=30)
    # resume: the measured rows come from the journal (same times), the worker-died ones run again
    (tmp / "killer.c").write_text(MISBEHAVING.replace("kill(getppid(), SIGKILL)", "(void)0"))
    again = sw.sweep(kernels, SPACE[:1], config=CFG, scheduler=client, progress=False, journal=journal)
    by = {(r["kernel"], r["variant"]): r for r in again.rows}
    for r in first.rows:
        if r["status"] == sw.OK:
            assert by[(r["kernel"], r["variant"])]["times"] == r["times"]
    assert all(r["status"] == sw.OK for r in again.rows)
    assert len(sw.read_journal(journal)) == 2


ILLEGAL = {"kernel_gemm.scop0": {"schedule": "{ S0[i, j] -> [i, 1, j, 0]; S1[i, k, j] -> [i, 0, j, k] }",
                                 "parallel": []}}


def test_illegal_user_schedule_is_rejected_before_compiling(tmp):
    res = sw.sweep([sw.Kernel(str(GEMM))], [sw.Variant(schedules=ILLEGAL)], config=CFG, serial=True,
                   progress=False)
    row = res.rows[0]
    assert row["status"] == sw.ILLEGAL and row["compile_s"] == 0.0
    assert "violates the" in row["message"] and "S0 -> S1" in row["message"]


def test_wrong_output_is_rejected(tmp):
    k = _kernel(tmp, "colsum")
    ref = {"status": sw.OK, "output": "0.000000\n", "times": [0.001], "message": ""}
    row = sw.run_variant(k, (tmp / "colsum.c").read_text(), sw.Variant(), ref, CFG)
    assert row["status"] == sw.WRONG_OUTPUT and row["median_s"] is None
    assert sw.same_output("x 1.0000001\n", "x 1.0\n", rtol=1e-6)
    assert not sw.same_output("x 1.0000001\n", "x 1.0\n")
    assert not sw.same_output("x 1.1\n", "x 1.0\n", rtol=1e-6)


def test_plot_of_time_against_tile_sizes(tmp):
    pytest.importorskip("matplotlib")
    row = {"kernel": "k", "variant": "default", **sw.Variant().params(), "status": sw.OK, "times": [1.0, 1.2],
           "median_s": 1.1, "min_s": 1.0, "reference_median_s": 1.5}
    rows = [row, dict(row, variant="--tile-sizes=8,8,8", tile_sizes="8x8x8", median_s=0.9, min_s=0.8,
                      times=[0.8, 0.95])]
    assert (tmp / "p.png").exists() is False
    sw.Sweep(rows).plot(str(tmp / "p.png"))
    assert (tmp / "p.png").read_bytes()[:4] == b"\x89PNG"
