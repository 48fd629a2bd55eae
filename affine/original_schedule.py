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
from .scheduler import PARALLEL_MARK, PRIVATE_MARK, mark_parallel, tile_band


def original_tree(model: IslScop) -> isl.Schedule:
    """The original schedule of `model` as a schedule tree of sequences and one-member bands (see above)."""
    domains = statement_domains(model)
    stmts = [s for s in model.scop.statements if s.name in domains]
    return _tree(stmts, 0, domains, _iterators(model)) if stmts else isl.Schedule.from_domain(model.domain)


def statement_domains(model: IslScop) -> dict:
    """statement name -> its iteration domain (isl.UnionSet), for the statements with a non-empty one."""
    domains = {}
    model.domain.foreach_set(lambda s: domains.__setitem__(s.get_tuple_name(), isl.UnionSet.from_set(s)))
    return domains


def _iterators(model: IslScop) -> isl.MultiUnionPwAff:
    return isl.MultiUnionPwAff.from_union_map(model.original)  # [b0, i0, b1, i1, ..., bd]


def _tree(stmts, level, domains, iterators) -> isl.Schedule:
    """The original schedule tree of `stmts` (which share their first `level` loops) below those loops."""
    parts = []
    for pos in sorted({s.beta[level] for s in stmts}):
        group = [s for s in stmts if s.beta[level] == pos]
        dom = reduce(isl.UnionSet.union, (domains[s.name] for s in group))
        if len(group[0].loops) == level:  # a statement (alone at its position), not a loop
            parts.append(isl.Schedule.from_domain(dom))
        else:
            loop = iterators.get_union_pw_aff(2 * level + 1).intersect_domain(dom)
            parts.append(_tree(group, level + 1, domains, iterators).insert_partial_schedule(
                isl.MultiUnionPwAff.from_union_pw_aff(loop)))
    return reduce(isl.Schedule.sequence, parts)


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


# ------------------------------------------------------------------------------- tiled original nests

# A tile of the streaming nest: 32 rows by 512 consecutive elements (4 KiB of doubles, a page), long enough for
# the hardware prefetcher to stream each row piece. bicg at 2 threads: 0.61 of the sequential time with 32 x 512
# tiles, 1.4 to 1.9 times the sequential time with 32 x 32 ones.
STREAM_TILE = (32, 512)


def tiled_wavefront_schedule(model: IslScop, deps: Dependences, sizes=STREAM_TILE) -> isl.Schedule | None:
    """The original schedule with every two-level nest that has no parallel loop turned into a tiled band run as
    a wavefront of parallel tiles, or None when no such nest holds a deepest statement.

    A two-level nest is an outermost loop i whose body holds one inner loop j (of statements only, its bounds
    independent of i: a rectangle) and statements before or after it. Its band is (i, t): a statement of the inner loop has t = j, one before the inner loop the
    first j of that i, one after it the last j; a sequence below the band keeps the source order among statements
    with equal (i, t). The band is permutable when no dependence inside the nest has a negative distance in i or
    t: then it is tiled (`sizes`, rows first) and scheduler.mark_parallel runs its tiles as a wavefront (Pluto's
    pipelined parallelism; Bondhugula et al., PLDI'08). This is bicg's shape: s[j] += r[i] * A[i][j] carries i and
    q[i] += A[i][j] * p[j] carries j, so neither loop is parallel, but a tile depends only on its upper and left
    neighbours, and A is streamed once.

    Args:
        model: the SCoP's isl model.
        deps: its dependences (dependences.compute).
        sizes: tile sizes (i, t), positive ints.
    """
    domains, iterators = statement_domains(model), _iterators(model)
    stmts = [s for s in model.scop.statements if s.name in domains]
    if not stmts:
        return None
    deepest = max(len(s.loops) for s in stmts)
    parts, tiled = [], False
    for pos in sorted({s.beta[0] for s in stmts}):
        group = [s for s in stmts if s.beta[0] == pos]
        band = _nest_band(group, domains, iterators, deps)
        if band is None:
            parts.append(_tree(group, 0, domains, iterators))
            continue
        order = sorted(group, key=lambda s: s.beta)
        body = reduce(isl.Schedule.sequence, (isl.Schedule.from_domain(domains[s.name]) for s in order))
        node = body.insert_partial_schedule(band).get_root().child(0).band_set_permutable(1)
        parts.append(tile_band(node, sizes).get_schedule())
        tiled = tiled or any(len(s.loops) == deepest for s in group)
    return mark_parallel(reduce(isl.Schedule.sequence, parts)) if tiled else None


def _nest_band(group, domains, iterators, deps) -> isl.MultiUnionPwAff | None:
    """The (i, t) partial schedule of the two-level nest `group` (see tiled_wavefront_schedule) when it is
    permutable, else None (also when `group` is not such a nest or no dependence links its instances)."""
    inner = [s for s in group if len(s.loops) == 2]
    outer = [s for s in group if len(s.loops) == 1]
    if not inner or len(inner) + len(outer) != len(group) or len({s.beta[1] for s in inner}) != 1:
        return None
    dom = reduce(isl.UnionSet.union, (domains[s.name] for s in group))
    inside = deps.all.intersect_domain(dom).intersect_range(dom)
    if inside.is_empty():
        return None
    t_member = iterators.get_union_pw_aff(3).intersect_domain(
        reduce(isl.UnionSet.union, (domains[s.name] for s in inner)))
    # { [i] -> [j] }: the inner loop's iterations per i
    j_range = isl.Map.from_range(isl.Set.from_union_set(domains[inner[0].name]).reset_tuple_id()) \
        .move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, 1)
    first, last = j_range.lexmin_pw_multi_aff().get_pw_aff(0), j_range.lexmax_pw_multi_aff().get_pw_aff(0)
    if any(aff.involves_dims(isl.dim_type.in_, 0, 1) for pa in (first, last) for _, aff in pa.get_pieces()):
        # a triangle (trisolv): short rows of tiles, and at PolyBench's size (n = 2000) a wavefront of 4 tiles
        # at most, twice as slow as the sequential loops
        return None
    for s in outer:
        before = s.beta[1] < inner[0].beta[1]
        bound = first if before else last
        own = isl.Set.from_union_set(domains[s.name])
        bound = bound.set_tuple_id(isl.dim_type.in_, own.get_tuple_id()).intersect_domain(own)
        # t = 0 where the inner loop is empty (a band must schedule every instance)
        zero = isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(own.get_space()))
        bound = bound.union_add(zero.intersect_domain(own.subtract(bound.domain())))
        t_member = t_member.union_add(isl.UnionPwAff.from_pw_aff(bound))
    band = isl.MultiUnionPwAff.from_union_pw_aff(iterators.get_union_pw_aff(1).intersect_domain(dom)) \
        .flat_range_product(isl.MultiUnionPwAff.from_union_pw_aff(t_member))
    negative = isl.UnionSet.read_from_str(dom.get_ctx(), "{ [d] : d < 0 }")
    for k in range(2):
        member = isl.UnionMap.from_union_pw_aff(band.get_union_pw_aff(k))
        if not inside.apply_domain(member).apply_range(member).deltas().intersect(negative).is_empty():
            return None
    return band
