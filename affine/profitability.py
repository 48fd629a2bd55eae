"""Whether a computed schedule is predicted to beat the original loop order (the "where the model predicts a
gain" of `-O3`): a schedule predicted to lose is not applied and the SCoP keeps its original code.

The one loss the model predicts is fission of a memory-bound nest: statements that read one large array
(rank >= 2) in the same original outermost loop, each touching every element once (an injective access, so
tiling cannot create reuse), end up in different outermost loops of the new schedule. The array is then
streamed from memory once per new loop instead of once, and on a machine with a few cores the parallel loops
the fission exposes do not pay for the extra traffic (bicg: both halves parallel, 1.6x slower than the fused
sequential original at 2 threads). Pluto's fusion heuristics weigh the same trade-off (Bondhugula et al.,
PLDI'08, "smart fuse").
"""

from __future__ import annotations

import islpy as isl

from .isl_model import IslScop
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
    for (array, group), groups in sorted(streamed.items(), key=str):
        if len(groups) > 1:
            where = next(source_location(s.store) for s in model.scop.statements if s.beta[0] == group)
            return False, (f"no predicted gain: the schedule splits the loop holding {where}, which reads array "
                           f"{array} once, into {len(groups)} loops that each stream it from memory")
    return True, ""
