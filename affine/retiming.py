"""Retiming a latency-bound reduction into the loop before it: loop shifting for fusion.

Levinson-Durbin's outer loop k runs, in order, an inner product ``sum += r[k-i-1] * y[i]`` (one chain of
floating-point additions, which must keep its order to stay bit-exact, so it runs at the add latency), then the
vector updates ``z[i] = ...`` and ``y[i] = z[i]``, which the product of iteration k + 1 reads. No schedule that
keeps the loops of one k together can overlap the chain with anything: it depends on the whole previous
iteration. Shifting the chain (and the statements before it in the body) by one iteration of k, i.e. retiming
them (Leiserson and Saxe, "Retiming synchronous circuitry", Algorithmica 1991; for loops, Darte and Huard,
"Loop shifting for loop compaction", IJPP 2000), makes iteration k end with ``y[i] = z[i]`` of k and the chain
of k + 1 over the same i, which fuse: the copy runs in the shadow of the chain's latency (0.93 of gcc's time
for PolyBench's durbin, against 1.05 unshifted).

The pattern, on the statements of one outermost loop k of depth-2 statements:

* the chain C: alone in its inner loop i, it reads and writes one floating-point element that does not move
  with i (an accumulation: every instance depends on the previous one);
* the partner L: alone in a later inner loop of the same k, with no dependence between its own instances of
  one k (its copies of i are independent), and a value flow L[k, i] -> C[k + 1, i];
* the i ranges of L[k] and C[k + 1] overlap and, at every k where both run, differ by at most one point (the
  fused loop is separated by isl into the common range and the rest, so no guard stays in it).

The new order of the body of iteration t is: the statements after C (except L), in their order; those before C
(shifted: of iteration t + 1), in their order; then the fused loop: L[t, i] followed by C[t + 1, i]. The
schedule is used only when it respects every dependence (legality.violations).
"""

from __future__ import annotations

import islpy as isl
from mlir import ir

from .dependences import Dependences
from .isl_model import IslScop, maps, sets, subscript_coefficients
from .legality import schedule_from_map, violations


def retimed_schedule(model: IslScop, deps: Dependences) -> isl.Schedule | None:
    """The retimed and fused schedule of the module docstring for `model`, or None when its pattern is not
    there or the order is illegal. Raises nothing.

    Args:
        model: the SCoP's isl model (statements with their loops and 2d+1 positions, accesses).
        deps: its value-based dependences (dependences.compute); the schedule respects all of them.

    Returns:
        A schedule tree of one band (the 2d+1 form, the body of the outer loop reordered) whose fused loop's
        dimension isl's AST generator separates into the range both statements share and the rest.
    """
    statements = model.scop.statements
    for chain in statements:
        if not _is_chain(model, deps, chain):
            continue
        for partner in statements:
            if _is_partner(model, deps, chain, partner):
                schedule = _rotated(model, chain, partner)
                if not violations(model, deps, schedule):
                    return _separated(schedule_from_map(model, str(schedule)))
    return None


def _alone_in_inner_loop(model, s) -> bool:
    inner = s.loops[1].operation if len(s.loops) == 2 else None
    return inner is not None and not any(t is not s and len(t.loops) > 1 and t.loops[1].operation == inner
                                         for t in model.scop.statements)


def _accesses(model, s, kind) -> list:
    return [m for name, k, m in model.accesses if name == s.name and k == kind]


def _is_chain(model, deps, s) -> bool:
    if not _alone_in_inner_loop(model, s):
        return False
    writes = _accesses(model, s, "write")
    if len(writes) != 1 or any(1 in c for c in subscript_coefficients(writes[0])):
        return False  # (the element moves with i)
    array = writes[0].get_tuple_name(isl.dim_type.out)
    element = ir.MemRefType(model.scop.arrays[array].type).element_type
    if not isinstance(element, (ir.F32Type, ir.F64Type)):
        return False  # integer reductions reassociate exactly: LLVM vectorizes them
    if not any(r.is_equal(writes[0]) for r in _accesses(model, s, "read")):
        return False
    return not deps.raw.intersect(_relation(model, f"{s.name}[k, i] -> {s.name}[k, i + 1]")).is_empty()


def _is_partner(model, deps, chain, s) -> bool:
    if s is chain or not _alone_in_inner_loop(model, s) or s.beta[1] <= chain.beta[1]:
        return False
    if s.loops[0].operation != chain.loops[0].operation:
        return False
    if not deps.all.intersect(_relation(model, f"{s.name}[k, i] -> {s.name}[k, j]")).is_empty():
        return False  # (its instances of one k depend on each other)
    if deps.raw.intersect(_relation(model, f"{s.name}[k, i] -> {chain.name}[k + 1, i]")).is_empty():
        return False
    return _ranges_match(model, chain, s)


def _relation(model, text) -> isl.UnionMap:
    return isl.UnionMap.read_from_str(model.ctx, f"{model.param_header} -> {{ {text} }}")


def _ranges_match(model, chain, partner) -> bool:
    """The i ranges of partner[t] and chain[t + 1] overlap and, at every t where both run, differ by at most one
    point."""
    def shifted(name, by):
        dom = next(d for d in sets(model.domain) if d.get_tuple_name() == name)
        to = isl.Map.read_from_str(model.ctx, f"{model.param_header} -> {{ {name}[k, i] -> [k - {by}, i] }}")
        return dom.apply(to)

    ours, theirs = shifted(partner.name, 0), shifted(chain.name, 1)
    common = ours.intersect(theirs)
    if common.is_empty():
        return False
    # (the t where only one of them runs, the first and last, are a prologue and an epilogue)
    rows = common.project_out(isl.dim_type.set, 1, 1).insert_dims(isl.dim_type.set, 1, 1)
    return all(_at_most_one_per_t(extra.intersect(rows)) for extra in (ours.subtract(theirs),
                                                                       theirs.subtract(ours)))


def _at_most_one_per_t(points: isl.Set) -> bool:
    as_map = isl.Map.from_range(points).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, 1)
    return as_map.is_single_valued()


def _rotated(model, chain, partner) -> isl.UnionMap:
    """The flat schedule of the module docstring (the original 2d+1 vectors, with the body of k reordered)."""
    k_loop = chain.loops[0].operation
    inside = [s for s in model.scop.statements if s.loops and s.loops[0].operation == k_loop]
    positions = sorted({s.beta[1] for s in inside})
    cut = chain.beta[1]
    order = [p for p in positions if p > cut and p != partner.beta[1]] + [p for p in positions if p < cut]
    fused = len(order)
    original = {m.get_tuple_name(isl.dim_type.in_): m for m in maps(model.original)}
    width = original[chain.name].dim(isl.dim_type.out)
    out = isl.UnionMap.empty(model.original.get_space())
    for s in model.scop.statements:
        if s not in inside:
            out = out.union(original[s.name])
            continue
        its = model.iterators[s.name]
        vector = [str(s.beta[0]), its[0]]
        vector[1] = f"{its[0]} - 1" if s.beta[1] <= cut else its[0]
        if s is chain or s is partner:
            vector += [str(fused), its[1], "1" if s is chain else "0"]
        else:
            vector.append(str(order.index(s.beta[1])))
            for d in range(1, len(s.loops)):
                vector += [its[d], str(s.beta[d + 1])]
        vector += ["0"] * (width - len(vector))
        text = f"{model.param_header} -> {{ {s.name}[{', '.join(its)}] -> [{', '.join(vector)}] }}"
        out = out.union(isl.UnionMap.read_from_str(model.ctx, text).intersect_domain(model.domain))
    return out


def _separated(schedule: isl.Schedule) -> isl.Schedule:
    """`schedule` (one band) with the fused loop's member (dimension 3) generated as separate loops per set of
    active statements."""
    band = schedule.get_root().child(0)
    return band.band_member_set_ast_loop_type(3, isl.ast_loop_type.separate).get_schedule()
