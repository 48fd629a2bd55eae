"""The original schedule with its parallel loops marked: what `-O3` runs when the computed schedule is predicted
to lose (profitability.py), instead of the fully sequential original code.

The schedule tree follows the statements' 2d+1 positions: a sequence node for every block of the source that
holds several loops or statements, a one-member band for every loop (its iterator, read off the original
schedule). Code generation thus reproduces the source's loops and statement order (no fusion, fission, tiling or
interchange), and every dependence is ordered as in the source.

A loop is parallel (its band member coincident) when no dependence between two statement instances in the same
iteration of the loops around it has different values of its iterator: the test Polly applies to a schedule it
leaves unchanged (parallel loop detection of IslAstInfo, Grosser et al., PPL 2012). A rank-0 array (a scalar that
scop.py demoted to memory) does not count when it can be privatized in the loop: it is allocated in the function
and used only in the SCoP, every read of it under the loop takes its value from a write in the same iteration,
and no value written under the loop is read outside that iteration (scalar privatization, Maydan, Amarasinghe
and Lam, POPL'93; exact here because the RAW dependences are value-based). A "private" mark under the loop's
parallel mark names such arrays, and code generation gives each iteration its own copy.
scheduler.mark_parallel then marks the outermost parallel loop of every path, with its rule for parallel loops
inside sequential ones. A reduction's loop carries its dependence and stays sequential (results are bit-exact).
The schedule is used only when a parallel loop holds statements of the deepest nest.
"""

from __future__ import annotations

from functools import reduce

import islpy as isl
from mlir import ir

from polygeist_py.gpu_to_cpu.ir_nav import within

from . import dependences
from .dependences import Dependences, on_arrays
from .isl_model import IslScop
from .profitability import parallel_statements
from .scheduler import PARALLEL_MARK, PRIVATE_MARK, mark_parallel


def original_tree(model: IslScop) -> isl.Schedule:
    """The original schedule of `model` as a schedule tree of sequences and one-member bands (see above)."""
    domains = {}
    model.domain.foreach_set(lambda s: domains.__setitem__(s.get_tuple_name(), isl.UnionSet.from_set(s)))
    iterators = isl.MultiUnionPwAff.from_union_map(model.original)  # [b0, i0, b1, i1, ..., bd]

    def tree(stmts, level):
        parts = []
        for pos in sorted({s.beta[level] for s in stmts}):
            group = [s for s in stmts if s.beta[level] == pos]
            dom = reduce(isl.UnionSet.union, (domains[s.name] for s in group))
            if len(group[0].loops) == level:  # a statement (alone at its position), not a loop
                parts.append(isl.Schedule.from_domain(dom))
            else:
                loop = iterators.get_union_pw_aff(2 * level + 1).intersect_domain(dom)
                parts.append(tree(group, level + 1).insert_partial_schedule(
                    isl.MultiUnionPwAff.from_union_pw_aff(loop)))
        return reduce(isl.Schedule.sequence, parts)

    stmts = [s for s in model.scop.statements if s.name in domains]
    return tree(stmts, 0) if stmts else isl.Schedule.from_domain(model.domain)


def scalar_candidates(model: IslScop) -> set:
    """Names of the SCoP's rank-0 arrays that are allocated in its function and used only inside the SCoP."""
    out = set()
    for name, mem in model.scop.arrays.items():
        owner = mem.owner
        if ir.MemRefType(mem.type).rank != 0 or isinstance(owner, ir.Block) or owner.name != "memref.alloca":
            continue
        if all(any(within(use.owner, op) for op in model.scop.ops) for use in mem.uses):
            out.add(name)
    return out


def parallel_schedule(model: IslScop, deps: Dependences) -> isl.Schedule | None:
    """original_tree(model) with its parallel loops marked (and "private" marks under them), or None when none
    of them holds a deepest statement (where the time goes): parallel initialization loops alone (atax's, bicg's
    y[j] = 0) add a fork/join and a spinning second thread to a sequential nest and gain nothing.

    Args:
        model: the SCoP's isl model.
        deps: its dependences (dependences.compute).
    """
    scalars = scalar_candidates(model)
    through = {x: dependences.compute(model, {x}) for x in scalars}
    rest = deps.all if not scalars else dependences.compute(model, set(model.scop.arrays) - scalars).all
    accesses = model.reads.union(model.writes)

    def private(band) -> list:
        """The scalars accessed under `band` whose values stay inside one iteration of its loop."""
        dom, same = band.get_domain(), band.child(0).get_prefix_schedule_multi_union_pw_aff()
        out = []
        for x in sorted(scalars):
            if on_arrays(accesses, {x}).intersect_domain(dom).is_empty():
                continue
            raw = through[x].raw
            touching = raw.intersect_domain(dom).union(raw.intersect_range(dom))
            local = touching.intersect_domain(dom).intersect_range(dom).eq_at_multi_union_pw_aff(same)
            reads = on_arrays(model.reads, {x}).domain().intersect(dom)
            if touching.is_subset(local) and reads.is_subset(local.range()):
                out.append(x)
        return out

    def coincident(node):
        if node.get_type() != isl.schedule_node_type.band:
            return node
        dom = node.get_domain()
        kept = set(private(node))
        dep = reduce(isl.UnionMap.union, (through[x].all for x in sorted(scalars - kept)), rest)
        dep = (dep.intersect_domain(dom).intersect_range(dom)
               .eq_at_multi_union_pw_aff(node.get_prefix_schedule_multi_union_pw_aff()))
        same = node.child(0).get_prefix_schedule_multi_union_pw_aff()
        return node.band_member_set_coincident(0, dep.is_subset(dep.eq_at_multi_union_pw_aff(same)))

    def mark_private(node):
        parent = node.parent() if node.has_parent() else None
        if node.get_type() != isl.schedule_node_type.band or parent is None or \
                parent.get_type() != isl.schedule_node_type.mark or parent.mark_get_id().get_name() != PARALLEL_MARK:
            return node
        names = private(node)
        return node.insert_mark(isl.Id(" ".join([PRIVATE_MARK, *names]), context=model.ctx)) if names else node

    schedule = original_tree(model).get_root().map_descendant_bottom_up(coincident).get_schedule()
    schedule = mark_parallel(schedule)
    depth = {s.name: len(s.loops) for s in model.scop.statements}
    if not {name for name in parallel_statements(schedule) if depth[name] == max(depth.values())}:
        return None
    return schedule.get_root().map_descendant_bottom_up(mark_private).get_schedule()
