"""Remarks of the polyhedral stage (polygeist_py/remarks.py prints them): which loop nests became SCoPs and which
did not and why, what schedule was chosen or kept and why, which loops were made parallel, tiled, unrolled and
jammed, and the dependence that keeps a SCoP's loops sequential.

`survey(module)` runs before the stage, reads the module without changing it, and finds for every outermost loop
that cannot be part of a SCoP the first construct that prevents it (mirroring scop.py's `_is_scop_op`);
`report(remarks, reports, missed)` prints the remarks after the stage from its ScopReports.
"""

from __future__ import annotations

import re

from mlir import ir

from .scop import IF, LOAD, LOOP, OMP_TEAM_OPS, STORE, _demotable, _has_store, source_location

STAGE = "polyhedral"
LOOPS = (LOOP, "scf.for", "scf.while", "scf.parallel", "affine.parallel")
AFFINE_OK = (LOAD, STORE, "affine.apply", "affine.yield")


def _is_pure(op) -> bool:
    from polygeist_py.gpu_to_cpu.ir_nav import is_pure
    return is_pure(op)


def _callee(op) -> str:
    try:
        return ir.FlatSymbolRefAttr(op.attributes["callee"]).value
    except (KeyError, ValueError):
        return "?"


def obstacle(op) -> tuple | None:
    """(op, reason) for the first construct in `op` (an op of a loop body) that keeps it out of a SCoP, or None
    when it can be part of one."""
    name = op.operation.name
    if name == LOOP:
        for a in list(op.regions[0].blocks[0].arguments)[1:]:
            if not _demotable(a.type):
                return op, f"a value of type {a.type} is carried from one iteration to the next"
        return _first(op.regions[0].blocks[0].operations)
    if name == IF:
        for r in op.results:
            if not _demotable(r.type):
                return op, f"a condition yields a value of type {r.type}"
        for region in op.regions:
            for block in region.blocks:
                found = _first(block.operations)
                if found:
                    return found
        return None
    if name in AFFINE_OK:
        return None
    if name in ("func.call", "llvm.call"):
        return op, f"a call to '{_callee(op)}' (its effects on memory are unknown)"
    if name in ("memref.load", "memref.store"):
        return op, ("an access whose subscript is not an affine function of the loop counters and parameters "
                    "(e.g. A[idx[i]])")
    if name in ("llvm.load", "llvm.store"):
        return op, "memory accessed through a pointer that is not an array of the loop nest"
    if name in ("scf.for", "scf.parallel"):
        return op, "a loop whose bounds or step are not affine (they depend on data or on non-affine arithmetic)"
    if name == "scf.while":
        return op, "a while loop (its trip count depends on data)"
    if name in ("scf.if", "scf.index_switch"):
        return op, "a condition that is not affine (it depends on data)"
    if _is_pure(op) and not name.startswith("llvm."):
        return None
    return op, f"the operation '{name}'"


def _first(ops) -> tuple | None:
    for o in ops:
        found = obstacle(o)
        if found:
            return found
    return None


def survey(module) -> list:
    """[(location, reason, obstacle location)] for every outermost loop of `module` that no SCoP can contain.
    Reads the module only."""
    out = []

    def visit(op, team):
        for region in op.regions:
            for block in region.blocks:
                for o in block.operations:
                    name = o.operation.name
                    if name in OMP_TEAM_OPS:
                        visit(o, True)
                    elif name in LOOPS:
                        if team:
                            out.append((source_location(o), "it runs inside an OpenMP parallel region", None))
                        else:
                            why = _loop_reason(o)
                            if why:
                                out.append((source_location(o), why[1], source_location(why[0])))
                            elif name != LOOP:
                                visit(o, team)
                    else:
                        visit(o, team)

    for f in module.body.operations:
        if f.operation.name == "func.func":
            visit(f, False)
    return out


def _loop_reason(loop) -> tuple | None:
    if loop.operation.name != LOOP:
        found = obstacle(loop)
        # a non-affine loop: its affine inner loops may still be SCoPs (reported on their own)
        return found
    found = obstacle(loop)
    if found:
        return found
    if not _has_store(loop):
        return loop, ("the loop writes no array: its result is carried in a scalar (a reduction), which the "
                      "polyhedral stage leaves to LLVM")
    return None


def _walk(node, visit) -> None:
    visit(node)
    for i in range(node.n_children()):
        _walk(node.child(i), visit)


def _schedule_facts(schedule) -> dict:
    """Marks and tiles in an isl schedule tree: {"parallel": n, "parallel-if-large": n, "unroll-jam": n,
    "tiles": [sizes...]}."""
    import islpy as isl

    facts = {"parallel": 0, "parallel-if-large": 0, "unroll-jam": 0, "tiles": []}
    if not hasattr(schedule, "get_root"):
        return facts

    def visit(node):
        t = node.get_type()
        if t == isl.schedule_node_type.mark:
            name = node.mark_get_id().get_name().split()[0]
            if name in facts:
                facts[name] += 1
        elif t == isl.schedule_node_type.band:
            sizes = re.findall(r"floor\(\(.*?\)/(\d+)\)", str(node.band_get_partial_schedule()))
            if sizes and len(sizes) >= node.band_n_member():
                facts["tiles"].append("x".join(sizes[:node.band_n_member()]))

    _walk(schedule.get_root(), visit)
    return facts


def _dependence(report) -> str | None:
    deps = report.deps
    if deps is None:
        return None
    for kind, rel in deps.by_kind().items():
        if not rel.is_empty():
            text = str(rel.coalesce())
            return f"{kind} {text if len(text) < 160 else text[:157] + '...'}"
    return None


def report(remarks, reports, missed) -> None:
    """Print the polyhedral stage's remarks: `reports` (transform.run's ScopReports), `missed` (survey's)."""
    seen = set()
    for loc, reason, at in missed:
        if loc in seen:
            continue
        seen.add(loc)
        where = ""
        if at and at != loc:
            same_file = at.rsplit(":", 2)[0] == loc.rsplit(":", 2)[0]
            where = f" (at line {at.rsplit(':', 2)[1]}, column {at.rsplit(':', 2)[2]})" if same_file else f" (at {at})"
        remarks.emit("missed", STAGE, loc, f"loop nest not modelled as a SCoP: {reason}{where}")
    for r in reports:
        loc = r.location or None
        if r.model is None:
            remarks.emit("missed", STAGE, loc, f"loop nest not modelled as a SCoP: {r.reason}")
            continue
        n_stmts = len(r.model.scop.statements)
        params = ", ".join(r.model.params) or "none"
        remarks.emit("analysis", STAGE, loc, f"SCoP {r.name}: {n_stmts} statement{'s' * (n_stmts != 1)}, "
                                             f"parameters: {params}; dependences: "
                                             + "; ".join(f"{k} {v}" for k, v in r.deps.printable().items()))
        if r.status != "scheduled":
            remarks.emit("missed", STAGE, loc, f"SCoP {r.name} modelled; schedule kept in the original order: "
                                               f"{r.reason or 'code generation declined it'}")
        else:
            how = f" ({r.reason})" if r.reason else ""
            remarks.emit("pass", STAGE, loc, f"SCoP {r.name} modelled and rescheduled{how}")
        facts = _schedule_facts(r.schedule) if r.schedule is not None else None
        if facts is None:
            continue
        if r.status == "scheduled":
            if facts["tiles"]:
                remarks.emit("pass", STAGE, loc, f"loop nest tiled (tile sizes per band: {', '.join(facts['tiles'])})")
            if facts["unroll-jam"]:
                remarks.emit("pass", STAGE, loc, f"{facts['unroll-jam']} loop(s) unrolled and jammed")
            if facts["parallel"]:
                remarks.emit("pass", STAGE, loc, f"{facts['parallel']} loop(s) made parallel (OpenMP)")
            if facts["parallel-if-large"]:
                remarks.emit("pass", STAGE, loc, f"{facts['parallel-if-large']} loop(s) made parallel when their "
                                                 "trip count is large (checked at run time)")
        if r.status != "scheduled" or not (facts["parallel"] or facts["parallel-if-large"]):
            dep = _dependence(r)
            if r.status != "scheduled":
                msg = "loops not parallelized: the original order is kept" + (f"; dependence {dep}" if dep else "")
            elif dep:
                msg = f"loop not parallelized: every loop carries the dependence {dep}"
            else:
                msg = "loop not parallelized: no loop is worth running in parallel"
            remarks.emit("missed", STAGE, loc, msg)
