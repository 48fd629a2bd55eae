"""Whether a computed schedule is predicted to beat the original loop order (the "where the model predicts a
gain" of `-O3`): a schedule predicted to lose is not applied and the SCoP keeps its original code.

The one loss the model predicts is fission of a memory-bound nest: statements that read one large array
(rank >= 2) in the same original outermost loop, each touching every element once (an injective access, so
tiling cannot create reuse), end up in different outermost loops of the new schedule. The array is then
streamed from memory once per new loop instead of once, and on a machine with a few cores the parallel loops
the fission exposes do not pay for the extra traffic (bicg: both halves parallel, 1.6x slower than the fused
sequential original at 2 threads). Pluto's fusion heuristics weigh the same trade-off (Bondhugula et al.,
PLDI'08, "smart fuse").

The third is a schedule that linearizes loops through their constant bounds (largest_coefficient).

The second is a lost stride-1 walk: an access to a large array whose last subscript follows the statement's
innermost loop in the original (consecutive elements) but whose earlier subscript follows the innermost loop of
the new schedule (one element per row: trisolv's row dot products turned into column updates, 4.6x slower).

The last is no change: a schedule that keeps the original order (keeps_original_order) and runs no loop in
parallel; regenerated, the same order can only lose to the original code.
"""

from __future__ import annotations

import islpy as isl

from .isl_model import IslScop, maps, subscript_coefficients
from .legality import flat_map
from .scop import source_location


def original_groups(model: IslScop) -> dict:
    """statement name -> index of its outermost loop (or top-level statement) in the original SCoP."""
    return {s.name: s.beta[0] for s in model.scop.statements}


def schedule_groups(schedule: isl.Schedule) -> dict:
    """statement name -> index of its outermost loop in `schedule`: the children of the first sequence or set
    node above every band, or one group when a band comes first."""
    node = schedule.get_root()
    kinds = (isl.schedule_node_type.sequence, isl.schedule_node_type.set)
    while node.get_type() not in kinds and node.get_type() != isl.schedule_node_type.band and node.n_children():
        node = node.child(0)
    names = {}
    if node.get_type() in kinds:
        for k in range(node.n_children()):
            filt = node.child(k).filter_get_filter()
            filt.foreach_set(lambda s, k=k: names.__setitem__(s.get_tuple_name(), k))
    else:
        schedule.get_domain().foreach_set(lambda s: names.__setitem__(s.get_tuple_name(), 0))
    return names


def predicts_gain(model: IslScop, schedule: isl.Schedule) -> tuple[bool, str]:
    """(False, reason) when `schedule` splits a memory-bound nest (see the module docstring), else (True, "").

    Args:
        model: the SCoP's isl model (its statements carry their original loop positions).
        schedule: a legal schedule for it.
    """
    before, after = original_groups(model), schedule_groups(schedule)
    streamed = {}  # (array, original group) -> new groups of the statements streaming it
    for stmt, kind, access in model.accesses:
        if kind != "read" or access.dim(isl.dim_type.out) < 2 or not access.is_injective():
            continue
        key = (access.get_tuple_name(isl.dim_type.out), before.get(stmt))
        streamed.setdefault(key, set()).add(after.get(stmt, 0))
    from .scheduler import MAX_COEFFICIENT, largest_coefficient

    big = largest_coefficient(schedule)
    if big > MAX_COEFFICIENT:
        return False, (f"no predicted gain: a schedule dimension multiplies a loop iterator by {big}, "
                       f"enumerating several loops as one through their constant bounds")
    if not parallel_statements(schedule, any_parallel=True) and keeps_original_order(model, schedule):
        # regenerated code in the same order can only lose to the original (hoisted guards and split
        # statements: a nussinov-shaped nest with a best-so-far scalar took 1.3x the time of its original code)
        return False, "no predicted gain: the schedule keeps the original order and runs no loop in parallel"
    lost = lost_stride_one(model, schedule)
    if lost:
        return False, f"no predicted gain: the new innermost loop walks array {lost} across rows, not along them"
    for (array, group), groups in sorted(streamed.items(), key=str):
        if len(groups) > 1:
            where = next(source_location(s.store) for s in model.scop.statements if s.beta[0] == group)
            return False, (f"no predicted gain: the schedule splits the loop holding {where}, which reads array "
                           f"{array} once, into {len(groups)} loops that each stream it from memory")
    return True, ""


def innermost_iterators(umap: isl.UnionMap) -> dict:
    """statement name -> the iterator its innermost varying schedule dimension follows (alone, coefficient
    +-1), or None when that dimension combines iterators."""
    out = {}
    for m in maps(umap):
        stmt = m.get_tuple_name(isl.dim_type.in_)
        pma = isl.PwMultiAff.from_map(m)
        it = None
        for d in reversed(range(m.dim(isl.dim_type.out))):
            pieces = pma.get_pw_aff(d).get_pieces()
            coeffs = {k for _, aff in pieces for k in range(aff.dim(isl.dim_type.in_))
                      if aff.get_coefficient_val(isl.dim_type.in_, k).to_python()}
            if coeffs:
                it = coeffs.pop() if len(coeffs) == 1 else None
                break
        out[stmt] = it
    return out


def keeps_original_order(model: IslScop, schedule: isl.Schedule) -> bool:
    """Whether `schedule` runs the statement instances of `model` in their original order."""
    new, old = flat_map(model, schedule), flat_map(model, model.original)
    return new.lex_lt_union_map(new).is_equal(old.lex_lt_union_map(old))


def parallel_statements(schedule: isl.Schedule, any_parallel: bool = False) -> set:
    """Names of the statements under a parallel mark of `schedule` (with `any_parallel`, also under a
    parallel-if-large mark)."""
    from .scheduler import LARGE_PARALLEL_MARK, PARALLEL_MARK

    marks = {PARALLEL_MARK, LARGE_PARALLEL_MARK} if any_parallel else {PARALLEL_MARK}
    found = set()

    def visit(node):
        if node.get_type() == isl.schedule_node_type.mark and node.mark_get_id().get_name() in marks:
            node.get_domain().foreach_set(lambda s: found.add(s.get_tuple_name()))
            return
        for k in range(node.n_children()):
            visit(node.child(k))

    visit(schedule.get_root())
    return found


def lost_stride_one(model: IslScop, schedule: isl.Schedule) -> str | None:
    """The name of an array (rank >= 2) that the original innermost loop of one of the deepest statements
    walks along a row and the new innermost loop of `schedule` walks across rows, or None. Two threads do not
    pay for it in a deeper nest (trmm, parallel but walking down columns, took 2.3x gcc's time); a parallel
    depth-2 nest is left to the schedule (gesummv: 0.99 scheduled, 1.24 kept)."""
    before = innermost_iterators(model.original)
    after = innermost_iterators(flat_map(model, schedule))
    depth = {st.name: len(st.loops) for st in model.scop.statements}
    extent = _dimensions(model.domain)  # a piece of a split statement (index_set_splitting.py) may be flat
    hot = {name for name in depth if extent[name] == max(extent.values())}  # where the time goes
    # a parallel matrix-vector nest (depth 2) has no reuse to lose; deeper ones repeat the strided walk
    parallel = {name for name in parallel_statements(schedule) if depth[name] <= 2}
    for stmt, _, access in model.accesses:
        if stmt not in hot or stmt in parallel:
            continue
        if access.dim(isl.dim_type.out) < 2 or before.get(stmt) is None or after.get(stmt) is None:
            continue
        moved = [set(sub) for sub in subscript_coefficients(access)]
        inner_before, inner_after = before[stmt], after[stmt]
        along_before = inner_before in moved[-1] and not any(inner_before in m for m in moved[:-1])
        across_after = any(inner_after in m for m in moved[:-1])
        if along_before and across_after:
            return access.get_tuple_name(isl.dim_type.out)
    return None


def _dimensions(domain: isl.UnionSet) -> dict:
    """statement name -> the dimension of its iteration domain (iterators minus the equalities among them)."""
    out = {}

    def visit(s):
        equalities = [c for c in s.affine_hull().get_constraints() if c.is_equality()]
        out[s.get_tuple_name()] = s.dim(isl.dim_type.set) - len(equalities)
    domain.foreach_set(visit)
    return out
