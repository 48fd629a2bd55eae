"""The polyhedral stage: every SCoP of a module is modelled, scheduled, checked and regenerated.

For each function: candidate regions are found, their loop-carried scalars demoted (scop.py) and the scalars
whose final value goes to one array element folded into it (cell_folding.py), each region becomes a Scop, its
isl model and dependences are computed, a schedule is computed (scheduler.py) or taken from the user, checked
against the dependences (legality.py), and the region is replaced by the code isl generates
(codegen.py; reduction elements of innermost loops carried in registers: scalar_promotion.py). A computed
schedule predicted to lose (profitability.py) is replaced by the original one with its parallel loops marked
(original_schedule.py), or, when no parallel loop holds its deepest statements, the region keeps its code. A
region that cannot be modelled or regenerated is left as it was (its folded elements carried through innermost
loops in registers again): the stage is an optimization and never changes what a program computes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from mlir import ir

from . import (alias_checks, cell_folding, codegen, dependences, index_set_splitting, isl_model, jam_marks,
               legality, original_schedule, profitability, retiming, scalar_expansion, scalar_promotion,
               scheduler, triangular_jam)
from .user_schedule import describe_options
from .scop import NotAScop, source_location, demote_loop_state, drop_dead_iter_args, extract_scop, find_regions


@dataclass
class ScopReport:
    """What happened to one SCoP: `status` is "scheduled", "kept" (model or codegen refused, see `reason`)."""
    name: str
    function: str
    status: str
    reason: str = ""
    model: object = None
    deps: object = None
    schedule: object = None
    region: list | None = None  # the region's top-level ops
    folded: bool = False  # a scalar was folded into an array element in it (cell_folding.py)
    location: str = ""  # file:line:col of the region's first op (for remarks: code generation erases the ops)
    compiled_with: dict | None = None  # the options its schedule came from (user_schedule.describe_options)


@dataclass
class PolyhedralOptions:
    """Options of the stage: `schedule` (ScheduleOptions: the command line's), `user_schedules` the entries of a
    schedule file per SCoP (user_schedule.read_schedule_file: {scop name: {"schedule": isl union map text or
    list of texts, "parallel": [schedule dimensions]} for a schedule imposed instead of a computed one, and/or
    "options": {tile_sizes, fusion, parallel, unroll_jam} replacing `schedule`'s for that SCoP}), `only_model`
    to schedule without regenerating code (for --emit=scop)."""
    schedule: scheduler.ScheduleOptions = field(default_factory=scheduler.ScheduleOptions)
    user_schedules: dict = field(default_factory=dict)
    only_model: bool = False

    def user_schedule(self, name: str) -> dict | None:
        """The user schedule entry of SCoP `name`, or None when its schedule is computed."""
        entry = self.user_schedules.get(name)
        return entry if entry is not None and "schedule" in entry else None

    def schedule_for(self, name: str) -> scheduler.ScheduleOptions:
        """The ScheduleOptions of SCoP `name`: the command line's with its entry's options."""
        from .user_schedule import schedule_options
        return schedule_options(self.schedule, self.user_schedules.get(name, {}).get("options", {}))


def functions(module) -> list:
    return [op for op in module.body.operations
            if op.operation.name == "func.func" and len(op.regions[0].blocks) > 0]


def scops_of(func) -> list:
    """Demote loop state in `func`'s candidate regions and fold private scalars into the elements they are
    stored to (cell_folding.py), in place; return the regions afterwards, each with whether a scalar was folded
    in it."""
    folded = []
    for region in find_regions(func):
        region = demote_loop_state(func, drop_dead_iter_args(region))
        loops = [op.operation for op in region if op.operation.name == "affine.for"]  # (folding erases no loop)
        # (folding assumes the arrays do not overlap: the unfolded loops stay for a failed run-time check)
        guard = alias_checks.guard_region(region)
        if cell_folding.fold(func, region):
            folded.extend(loops)
        else:
            alias_checks.unguard(guard)
    return [(region, any(op.operation in folded for op in region)) for region in find_regions(func)]


def _registers_back(report, modelled: bool = True) -> None:
    """In a region that keeps its code, carry elements through innermost loops in registers (scalar_promotion.py):
    in a modelled SCoP, for elements of arrays that cannot overlap others (alias.py), or of all arrays when the
    SCoP is the folded side of a guard that then gets its run-time alias check; elsewhere only after cell folding
    (the folded scalars held those elements in registers)."""
    if not (modelled or report.folded) or report.region is None:
        return
    disjoint = modelled and not report.model.scop.overlaps
    if modelled and not disjoint and alias_checks.pending_guard(report.model.scop.ops) is not None:
        try:
            alias_checks.version(report.model)  # (the folded code runs when its arrays do not overlap)
            disjoint = True
        except alias_checks.Unchecked:
            pass
    scalar_promotion.promote_in(report.region, disjoint=disjoint)


def model_scops(module: ir.Module) -> list:
    """A ScopReport per candidate region of `module` (loop state demoted in place), named `<function>.scop<k>`:
    status "modelled" with its isl model and dependences, or "kept" with the reason it cannot be modelled."""
    reports = []
    for func in functions(module):
        fname = ir.StringAttr(func.attributes["sym_name"]).value
        for k, (region, folded) in enumerate(scops_of(func)):
            name = f"{fname}.scop{k}"
            location = source_location(region[0]) if region else ""
            try:
                model = isl_model.build(extract_scop(func, region, name))
            except NotAScop as e:
                reports.append(ScopReport(name, fname, "kept", str(e), region=region, folded=folded,
                                          location=location))
                _registers_back(reports[-1], modelled=False)
                continue
            reports.append(ScopReport(name, fname, "modelled", model=model, deps=dependences.compute(model),
                                      region=model.scop.ops, folded=folded, location=location))
    return reports


def run(module: ir.Module, options: PolyhedralOptions | None = None) -> list:
    """Schedule every SCoP of `module` in place; returns one ScopReport per candidate region.

    Raises:
        legality.IllegalSchedule: a user schedule violates a dependence (the message names it).
    """
    options = options or PolyhedralOptions()
    reports = model_scops(module)
    for report in reports:
        if report.model is None:
            continue
        name, model, deps = report.name, report.model, report.deps
        private = {}
        user = options.user_schedule(name)
        sched_options = options.schedule_for(name)  # (per SCoP: a schedule file's entry may set them)
        report.compiled_with = describe_options(sched_options, options.user_schedules.get(name))
        if user is not None:
            schedule = legality.schedule_from_map(model, user["schedule"])
            legality.check(model, deps, schedule, name)
            schedule = legality.mark_dims_parallel(model, deps, schedule, user.get("parallel", []), name)
        else:
            scheduled_model, scheduled_deps, schedule, private = _computed_schedule(model, deps, sched_options)
            legality.check(scheduled_model, scheduled_deps, schedule, name)
            gain, why = profitability.predicts_gain(scheduled_model, schedule)
            retimed = _retimed(model, deps, schedule, sched_options)
            if retimed is not None:
                legality.check(model, deps, retimed, name)
                schedule, private = retimed, {}
                report.reason = "a reduction chain is shifted by one iteration and fused with the loop before it"
            elif gain:
                model, deps = scheduled_model, scheduled_deps
            else:
                private = {}  # the fallback privatizes scalars its own way (original_schedule.py)
                report.reason = why
                fallback, how = _fallback(model, deps, sched_options)
                if fallback is not None:
                    legality.check(model, deps, fallback, name)
                    schedule, report.reason = fallback, f"{why}; the original loops run {how}"
                elif not options.only_model:
                    report.status, report.schedule = "kept", schedule
                    _registers_back(report)
                    continue
        # (a user schedule is imposed as written unless its entry asks for unroll-and-jam)
        if (sched_options.unroll_jam if user is None else user.get("options", {}).get("unroll_jam", False)):
            schedule = jam_marks.mark_unroll_jam(model, deps, schedule)[0]
        report.schedule = schedule
        if options.only_model:
            continue
        try:
            guard = alias_checks.version(report.model)
        except alias_checks.Unchecked as e:
            report.status, report.reason = "kept", f"arrays that may overlap cannot be checked at run time: {e}"
            _registers_back(report)
            continue
        try:
            finish = (lambda nest: scalar_expansion.privatize(nest, model, private)) if private else None
            codegen.replace_scop(model, codegen.build_ast(model, schedule), finish)
            report.status = "scheduled"
            if report.model.scop.overlaps:
                report.reason = (report.reason + "; " if report.reason else "") + \
                    "versioned on a run-time check that its arrays do not overlap"
        except codegen.CodegenError as e:
            alias_checks.unguard(guard)
            report.status, report.reason = "kept", str(e)
            _registers_back(report)
    if not options.only_model:  # (--emit=scop describes the regions as they are: the pending guards stay)
        for func in functions(module):
            alias_checks.settle(func)
    return reports


def _retimed(model, deps, computed, options):
    """The retimed schedule of `model` (retiming.py) when its pattern is there and the computed schedule runs
    none of the deepest statements, where the time goes, in a parallel loop (no parallelism to lose: durbin's
    computed schedule only hoists the initialization of its sums into a parallel loop), else None."""
    depth = max(len(s.loops) for s in model.scop.statements)
    deepest = {s.name for s in model.scop.statements if len(s.loops) == depth}
    if options.fusion == "none" or profitability.parallel_statements(computed) & deepest:
        return None
    return retiming.retimed_schedule(model, deps)


def _fallback(model, deps, options) -> tuple:
    """(schedule, how it runs the original loops) for a SCoP whose computed schedule is predicted to lose, or
    (None, "") when the original code is as good: the original loops with their parallel ones marked, else as a
    wavefront of tiles, else with triangular nests blocked by rows (triangular_jam.py), else unchanged when one
    of them is to be unrolled and jammed (jam_marks.py)."""
    tree, how = None, ""
    if options.parallel:
        tree, how = original_schedule.parallel_schedule(model, deps), "with their parallel ones marked"
        if tree is None:
            tree = original_schedule.tiled_wavefront_schedule(model, deps)
            how = "tiled, as a wavefront of parallel tiles"
    if tree is None and options.unroll_jam:
        tree = triangular_jam.triangular_jam_schedule(model, deps)
        how = "with the rows of triangular nests blocked and jammed"
    if tree is None and options.unroll_jam:
        tree = original_schedule.original_tree(model)
        if not jam_marks.mark_unroll_jam(model, deps, tree)[1]:
            return None, ""
        how = "with loops unrolled and jammed"
    return tree, how


def _computed_schedule(model, deps, options):
    """(model, dependences, schedule, private scalars {array: depth}) for isl's schedule of `model`: of the model
    with its private scalars expanded (scalar_expansion.py) when there are some and the schedule lets them be
    contracted back, else of `model` itself; or, when the parallel loops of its schedule lie further in, of the
    model with its statements' domains split (index_set_splitting.py)."""
    chosen = _unsplit_schedule(model, deps, options)
    depth = scheduler.first_parallel_depth(chosen[2])
    if options.parallel and depth > 0:
        split_model = index_set_splitting.split(model)
        if split_model is not None:
            split_deps = dependences.compute(split_model)
            # each piece a nest of its own, untiled: fused, isl ran Floyd-Warshall's column pieces outermost
            # around parallel rows (a fork per column); tiles of 32 x 32 inside k doubled its time
            piece_options = dataclasses.replace(options, fusion="none", tile=False)
            schedule = scheduler.compute_schedule(split_model, split_deps, piece_options)
            if scheduler.first_parallel_depth(schedule) < depth:
                return split_model, split_deps, schedule, {}
    return chosen


def _unsplit_schedule(model, deps, options):
    depths = scalar_expansion.expandable(model)
    if depths:
        expanded = scalar_expansion.expand(model, depths)
        expanded_deps = dependences.compute(expanded)
        schedule = scheduler.compute_schedule(expanded, expanded_deps, options,
                                              scalar_expansion.false_dependences(model, depths))
        if options.parallel:
            schedule = _freer_schedule(expanded, expanded_deps, options, schedule, depths)
        if scalar_expansion.contraction_ok(expanded, schedule, depths):
            return expanded, expanded_deps, schedule, depths
    return model, deps, scheduler.compute_schedule(model, deps, options), {}


def _freer_schedule(model, deps, options, schedule, depths):
    """`schedule` (computed with the private scalars' false dependences as validity constraints), or one computed
    without them when it runs more statements in parallel loops and the scalars can still be contracted.

    The false dependences keep each live range in one piece in the original order, which forbids reversing the
    order of two iterations: nussinov written with a best-so-far scalar (live within one (i, j) iteration)
    chains the end of each row to the start of the next one, so no wavefront is legal with them; without them
    isl finds the anti-diagonal wavefront, and every live range still runs uninterrupted in it."""
    parallel = profitability.parallel_statements(schedule)
    if len(parallel) == len(model.scop.statements):
        return schedule
    free = scheduler.compute_schedule(model, deps, options)
    if profitability.parallel_statements(free) > parallel and scalar_expansion.contraction_ok(model, free, depths):
        return free
    return schedule
