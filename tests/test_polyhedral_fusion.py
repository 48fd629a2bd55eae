"""Smart fusion keeps outer parallelism: a schedule computed with isl's maximize_coincidence is chosen when more
statements run in outer parallel loops in it (fdtd-2d), the fused schedule otherwise (gemver)."""

import dataclasses

import islpy as isl

from conftest import assert_output_like_gcc
from polygeist_py.affine import experiments, profitability, scheduler
from polygeist_py.affine.dependences import compute

PROGRAMS = "tests/programs/polybench"


def _scheduled(path, scop, **changes):
    view = experiments.load(path).scop(scop)
    options = dataclasses.replace(scheduler.ScheduleOptions(), **changes)
    return view, scheduler.compute_schedule(view.model, compute(view.model), options)


def test_fdtd_2d_field_updates_run_in_outer_parallel_loops():
    view, schedule = _scheduled(f"{PROGRAMS}/fdtd_2d.c", "kernel_fdtd_2d.scop0")
    # every statement (the boundary row, the two field updates, the third field's update) under a plain
    # "parallel" mark: no update is left to a short inner loop run in parallel only when its trip count is large
    assert profitability.parallel_statements(schedule) == set(view.statements)
    # the time loop stays outermost and sequential
    assert scheduler.first_parallel_depth(schedule) == 1


def test_fusion_kept_when_it_loses_no_parallel_loop():
    view, schedule = _scheduled(f"{PROGRAMS}/gemver.c", "kernel_gemver.scop0")
    assert profitability.parallel_statements(schedule) == set(view.statements)
    # S0 (the rank-2 update of A, line 50) and S1 (the product that reads A, line 54) share their outermost
    # loop nest: the first child of the top-level sequence holds both
    node = schedule.get_root().child(0)
    assert node.get_type() == isl.schedule_node_type.sequence
    first = set()
    node.child(0).filter_get_filter().foreach_set(lambda st: first.add(st.get_tuple_name()))
    assert {"S0", "S1"} <= first, str(schedule)


def test_without_parallel_loops_the_fused_schedule_is_kept():
    _, unmarked = _scheduled(f"{PROGRAMS}/fdtd_2d.c", "kernel_fdtd_2d.scop0", parallel=False)
    assert not profitability.parallel_statements(unmarked, any_parallel=True)


def test_fdtd_2d_output_unchanged(tmp):
    assert_output_like_gcc(f"{PROGRAMS}/fdtd_2d.c", tmp, threads=(1, 2, 3), stderr=True)
