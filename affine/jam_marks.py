"""Which loops of a schedule tree are unrolled and jammed: "unroll-jam" marks for code generation (unroll_jam.py).

A loop may be unrolled by F = UNROLL_JAM_FACTOR and its copies jammed into the loops inside it when that order of
the statement instances respects every dependence: the loop's iterator i becomes floor(i / F) and i moves below
everything else the loop holds. Two cases:

* the second innermost member of a permutable band that holds the innermost loops (no band below it): legal by
  permutability (the transformation is tiling by F with the tile's point loop moved innermost);
* the innermost member of any other sequential band with one loop level below it (the original loops of a
  fallback schedule, atax's row loop; syr2k's j loop above its k loop): checked with isl on the jammed tree.

Parallel loops are not marked (the jammed copies would be one iteration's work). Whether a marked loop is
transformed is decided on the generated loops (unroll_jam.py: only when it breaks a reduction chain or saves the
loads of an element), and the rank-0 scalars that code generation contracts are checked there.
"""

from __future__ import annotations

import islpy as isl

from .dependences import Dependences
from .isl_model import IslScop
from .legality import violations
from .scheduler import LARGE_PARALLEL_MARK, PARALLEL_MARK, PRIVATE_MARK, UNROLL_JAM_MARK, loop_depth
from .unroll_jam import UNROLL_JAM_FACTOR


def mark_unroll_jam(model: IslScop, deps: Dependences, schedule: isl.Schedule) -> tuple[isl.Schedule, int]:
    """(`schedule` with "unroll-jam" marks, the number of marks) for the loops of the module docstring.

    Args:
        model: the SCoP's isl model the schedule is for (the expanded one when scalars were expanded).
        deps: its dependences; a jammed order must respect them all.
        schedule: a legal schedule tree, parallel marks included.
    """
    ctx = schedule.get_ctx()
    marked = []

    def visit(node):
        if node.get_type() != isl.schedule_node_type.band:
            return node
        n = node.band_n_member()
        if node.band_get_permutable() and n >= 2 and loop_depth(node) == n:
            marked.append(n)
            if n > 2:
                return node.band_split(n - 2).child(0).insert_mark(isl.Id(UNROLL_JAM_MARK, context=ctx)).parent()
            return node.insert_mark(isl.Id(UNROLL_JAM_MARK, context=ctx))
        if loop_depth(node) != n + 1 or _is_parallel(node):
            return node
        last = node.band_split(n - 1).child(0) if n > 1 else node
        if not _jam_is_legal(model, deps, last):
            return node
        marked.append(1)
        last = last.insert_mark(isl.Id(UNROLL_JAM_MARK, context=ctx))
        return last.parent() if n > 1 else last

    schedule = schedule.get_root().map_descendant_bottom_up(visit).get_schedule()
    return schedule, len(marked)


def _is_parallel(node) -> bool:
    parent = node.parent() if node.has_parent() else None
    if parent is None or parent.get_type() != isl.schedule_node_type.mark:
        return False
    return parent.mark_get_id().get_name().split()[0] in (PARALLEL_MARK, LARGE_PARALLEL_MARK, PRIVATE_MARK)


def _jam_is_legal(model: IslScop, deps: Dependences, node) -> bool:
    """Whether the tree with one-member band `node`'s loop i unrolled and jammed (i -> floor(i / F) in place, i
    below every leaf under it) respects every dependence of `model`."""
    member = node.band_get_partial_schedule()
    factor = isl.Val.int_from_si(node.get_ctx(), UNROLL_JAM_FACTOR)
    jammed = node.delete().insert_partial_schedule(member.scale_down_val(factor).floor())

    def below_leaves(n):
        if n.get_type() != isl.schedule_node_type.leaf:
            return n
        return n.insert_partial_schedule(member.intersect_domain(n.get_domain()))

    jammed = jammed.map_descendant_bottom_up(below_leaves)
    return not violations(model, deps, jammed.get_schedule())
