"""Private scalars: a scalar rewritten in every iteration of its loops is expanded in the model, then contracted.

``acc = 0; for (k) acc += A[i][k] * B[j][k]; C[i][j] = acc;`` keeps ``acc`` in one memory cell (a rank-0 memref,
from the C source or from scop.py's demotion of iter_args). Its WAR and WAW dependences link every (i, j)
iteration to the next, so no loop of the nest is parallel, although each iteration only uses the value it
wrote itself. Array expansion removes these false dependences (Feautrier, "Array expansion", ICS'88): in the
isl model the accesses to such a scalar become accesses to ``acc[i0, .., i(d-1)]``, one cell per iteration of
the d loops that enclose all its accesses and within which every value is written before it is read. The
dependences, the schedule and its legality are those of the expanded program, which computes the same values.

The generated code keeps the scalar (contraction), which is exact when:

* no live range of one cell is cut by a write to another cell in the new schedule's order (checked with isl:
  no write of another cell lies between a write and a read it reaches), and
* every access to the scalar that the new code puts in a parallel loop lies in one outermost parallel loop,
  whose body then gets a private copy (a fresh ``memref.alloca``, as OpenMP's ``private``); the live ranges are
  within one of its iterations, since flow dependences have distance 0 along parallel (coincident) members.

Eligible: rank-0 memrefs allocated by ``memref.alloca`` with every use inside the SCoP (dead afterwards) and no
read that sees a value from before the SCoP (every read has a source write in it). PPCG reaches the same
schedules without expansion through live-range reordering (Verdoolaege and Cohen, IMPACT'16).
"""

from __future__ import annotations

import islpy as isl
from mlir import ir
from mlir.dialects import memref

from polygeist_py.gpu_to_cpu.ir_nav import within

from . import dependences
from .codegen import VERSIONS
from .dependences import on_arrays
from .isl_model import IslScop, maps
from .legality import flat_map
from .original_schedule import scalar_candidates


def expandable(model: IslScop) -> dict:
    """{array name: depth d >= 1} for the private scalars of `model` (see the module docstring)."""
    scop = model.scop
    out = {}
    for name in sorted(scalar_candidates(model)):
        reads, writes = on_arrays(model.reads, {name}), on_arrays(model.writes, {name})
        if writes.is_empty():
            continue
        flow = (isl.UnionAccessInfo.from_sink(reads).set_must_source(writes)
                .set_schedule_map(model.original).compute_flow())
        if not flow.get_may_no_source().is_empty():
            continue  # a read sees the value from before the SCoP
        live = flow.get_may_dependence()
        users = [s for s in scop.statements if _touches(model, s.name, name)]
        common = _common_loops(users)
        for d in range(common, 0, -1):
            if _equal_prefix(live, d):
                out[name] = d
                break
    return out


def expand(model: IslScop, depths: dict) -> IslScop:
    """A copy of `model` whose accesses to each array of `depths` are subscripted by the first d iterators."""
    def rewrite(umap):
        out = isl.UnionMap.empty(umap.get_space())
        for m in maps(umap):
            name = m.get_tuple_name(isl.dim_type.out)
            if name in depths:
                m = _subscripted(m, depths[name])
            out = out.union(m)
        return out

    accesses = [(st, kind, _subscripted(m, depths[m.get_tuple_name(isl.dim_type.out)])
                 if m.get_tuple_name(isl.dim_type.out) in depths else m) for st, kind, m in model.accesses]
    return IslScop(model.scop, model.ctx, model.domain, rewrite(model.reads), rewrite(model.writes),
                   model.original, model.params, model.iterators, accesses)


def false_dependences(model: IslScop, depths: dict) -> isl.UnionMap:
    """The WAR and WAW dependences of the unexpanded `model` through the scalars of `depths`. Made validity
    (not coincidence) constraints of the expanded model's schedule, they keep each cell's live range in one
    piece in the sequential order (the scalar can be contracted back) while still letting a loop that carries
    them run in parallel on private copies."""
    through = dependences.compute(model, set(depths))
    return through.war.union(through.waw)


def contraction_ok(model: IslScop, schedule, depths: dict) -> bool:
    """True when, in the order of `schedule`, no live range of a cell of an expanded scalar of `model` (an
    expanded model) contains a write to another cell of it."""
    order = flat_map(model, schedule)
    before = order.lex_lt_union_map(order)
    for name in depths:
        reads, writes = on_arrays(model.reads, {name}), on_arrays(model.writes, {name})
        live = dependences.compute(model, {name}).raw
        same = writes.apply_range(writes.reverse())
        others = isl.UnionMap.from_domain_and_range(writes.domain(), writes.domain()).subtract(same)
        cut = others.intersect(before).apply_range(before.intersect_range(reads.domain())).intersect(live)
        if not cut.is_empty():
            return False
    return True


def privatize(nest: list, model: IslScop, depths: dict) -> bool:
    """Give every expanded scalar written in a parallel loop of the generated `nest` (top-level ops) a private
    copy in the body of that loop. Returns False (nothing changed) when the uses of one such scalar are spread
    over several outermost parallel loops, or lie both inside one and outside."""
    plan = []
    for name in depths:
        mem = model.scop.arrays[name]
        uses = [u for u in mem.uses if any(within(u.owner, op) for op in nest)]
        loops = {_outermost_parallel(u.owner, nest) for u in uses}
        if loops == {None}:
            continue
        if all(u.owner.name == "affine.load" for u in uses if _outermost_parallel(u.owner, nest) is not None):
            continue  # parallel loops only read it: the value written before them, the same for every thread
        if len(loops) != 1:
            return False
        plan.append((mem, loops.pop(), uses))
    for mem, loop, uses in plan:
        body = loop.regions[0].blocks[0]
        with loop.location, ir.InsertionPoint.at_block_begin(body):
            private = memref.AllocaOp(mem.type, [], []).result
        for u in uses:
            u.owner.operands[u.operand_number] = private
    return True


def _outermost_parallel(op, nest):
    """The outermost affine.parallel around `op` in `nest`; for an op in the sequential twin of a parallel loop
    (the else branch of codegen's VERSIONS if) that parallel loop, whose body holds the same statements."""
    found = None
    o = op.operation if hasattr(op, "operation") else op
    prev = None
    while o is not None:
        if o.name == "affine.parallel":
            found = o
        elif o.name == "scf.if" and VERSIONS in o.attributes and prev is not None and \
                prev.parent is not None and _in_else(prev, o):
            twins = [p for p in o.regions[0].blocks[0].operations if p.name == "affine.parallel"]
            found = twins[0].operation if twins else found
        if any(o == n.operation for n in nest):
            break
        prev, o = o, o.parent
    return found


def _in_else(child, if_op) -> bool:
    return bool(len(if_op.regions[1].blocks)) and any(c.operation == child
                                                      for c in if_op.regions[1].blocks[0].operations)


def _touches(model, stmt, name) -> bool:
    return any(st == stmt and m.get_tuple_name(isl.dim_type.out) == name for st, _, m in model.accesses)


def _common_loops(statements) -> int:
    """The number of leading loops (the same affine.for ops) that enclose all `statements`."""
    if not statements:
        return 0
    n = min(len(s.loops) for s in statements)
    for k in range(n):
        first = statements[0].loops[k]
        if any(s.loops[k].operation != first.operation for s in statements[1:]):
            return k
    return n


def _equal_prefix(live, d) -> bool:
    """Every pair of `live` has the same first d iterators at source and sink."""
    for m in maps(live):
        eq = m
        for k in range(d):
            eq = eq.equate(isl.dim_type.in_, k, isl.dim_type.out, k)
        if not m.is_subset(eq):
            return False
    return True


def _subscripted(m, d):
    name = m.get_tuple_name(isl.dim_type.out)
    m = m.add_dims(isl.dim_type.out, d).set_tuple_name(isl.dim_type.out, name)
    for k in range(d):
        m = m.equate(isl.dim_type.in_, k, isl.dim_type.out, k)
    return m
