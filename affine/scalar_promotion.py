"""Array elements an innermost loop updates in place, or passes from one iteration to the next -> loop-carried
values (register promotion).

A schedule that makes the reduction loop innermost (gesummv's ``tmp[i] += A[i][j] * x[j]`` with j innermost, a
matrix product's ``C[i][j] += ...`` with k innermost) leaves a load and a store of the same element in every
iteration; LLVM cannot keep it in a register because it cannot prove that the other arrays do not alias it, and
the dependence through memory makes each iteration wait for the previous store. The SCoP's dependences were
computed assuming distinct arrays do not overlap, so the regenerated nest may rely on it too: an element that an
innermost loop only reads and writes at loop-invariant indices, and that no other access of the loop touches
(other elements of the same array are fine when isl proves them distinct under the loop bounds), is loaded once
before the loop, carried as an iter_arg and stored once after it (the load and store guarded by the loop being
non-empty, so no access happens that the original did not make).

The same goes for a value carried from one iteration to the next through memory (scalar replacement of
loop-carried reuse; Callahan, Carr and Kennedy, PLDI'90; gcc's predictive commoning): in adi's
``p[j][i] = -c / (a * p[j][i-1] + b)`` each iteration loads the element the previous one stored, and the
store-to-load round trip lengthens the recurrence's critical path (1.24x gcc's time on one core). When the
array's only store in the loop writes I(iv) and a load reads J(iv) = I(iv - step), with I(iv) never I(iv - step),
the load becomes an iter_arg that carries the stored value (initially J at the first iteration, loaded before
the loop when it runs); the store stays.
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import affine, arith, scf

from polygeist_py.gpu_to_cpu.ir_nav import defined_inside, is_pure

from .loop_context import ValueNames, unread_positions
from .alias import may_overlap
from .scop import NotAScop, array_base, memref_and_indices

ACCESSES = ("affine.load", "affine.store")
TAG = "pgcc.promoted"
FORWARDED = "pgcc.forwarded"


def promote_in(ops, disjoint: bool = True) -> int:
    """Promote in every innermost affine.for nested in `ops` (a list of ops, in place); returns the number of
    elements promoted (invariant ones and carried ones). `disjoint`: the memrefs of `ops` are known not to overlap
    (a scheduled SCoP, versioned on its run-time alias check); otherwise a memref that may overlap another one
    the loop accesses (alias.py), one of them stored to, is not promoted. Loops that do not qualify are left
    alone, so it raises nothing."""
    loops = []
    for op in ops:
        op.operation.walk(lambda o: (loops.append(o.opview) if o.name == "affine.for" else None)
                          or ir.WalkResult.ADVANCE)
    done = 0
    for loop in loops:
        done += _promote(loop, disjoint)
    return done


def _accesses_by_memref(loop, disjoint: bool = True) -> dict | None:
    """{memref: its affine.load/store ops in the body of innermost `loop`}, or None when the loop has results,
    nested regions or other memory effects."""
    body = list(loop.body.operations)[:-1]
    if any(len(op.regions) for op in body) or len(loop.results):
        return None
    groups = {}
    for op in body:
        if op.name in ACCESSES:
            mem, idx = memref_and_indices(op)
            groups.setdefault(mem, []).append(op)
        elif op.name != "affine.apply" and op.name.startswith(("affine.", "memref.", "func.", "llvm.")):
            return None  # (other memory effects: leave the loop as it is)
    storages = [_storage(mem) for mem in groups]
    # (two memref values over one storage, as two memref.get_global of one global: neither is promoted)
    alone = {mem: accs for (mem, accs), key in zip(groups.items(), storages) if storages.count(key) == 1}
    if disjoint:
        return alone
    stored = {mem for mem, accs in groups.items() if any(a.name == "affine.store" for a in accs)}
    return {mem: accs for mem, accs in alone.items()
            if not any(other != mem and (mem in stored or other in stored) and may_overlap(mem, other)
                       for other in groups)}


def _storage(mem):
    """A key of the storage behind memref `mem` (scop.array_base; a global by its name)."""
    base = array_base(mem)
    owner = base.owner
    if not isinstance(owner, ir.Block) and owner.operation.name == "memref.get_global":
        return ir.FlatSymbolRefAttr(owner.attributes["name"]).value
    return base


def _candidates(loop, groups) -> list:
    """(memref, accesses of the element) for the memrefs of which `loop` stores one loop-invariant element and
    touches no other element that may be it."""
    out = []
    for mem, accs in groups.items():
        by_key = {}
        for a in accs:
            by_key.setdefault((str(a.attributes["map"]), tuple(memref_and_indices(a)[1])), []).append(a)
        # the element: the accesses at one loop-invariant index with a store among them; every other access of
        # the array in the loop must provably touch other elements (cholesky's A[i][k] beside A[i][j] with
        # k < j; a retimed durbin's y[i] = z[i] beside its sum in y[k + 1])
        for key, element in by_key.items():
            if not any(a.name == "affine.store" for a in element):
                continue
            # (invariant pure index computations move before the loop, promoted or not: harmless)
            if not all(_hoist_invariant(v, loop) for v in memref_and_indices(element[0])[1]):
                continue
            others = [a for k, group in by_key.items() if k != key for a in group]
            if all(_disjoint(loop, element[0], o) for o in others):
                out.append((mem, element))
                break
    return out


def _disjoint(loop, element, other) -> bool:
    """Whether access `other` never touches the element `element` accesses, in any iteration of `loop`: the
    equality of their subscripts has no solution under the bounds of `loop` and of the affine.for ops around it
    (checked with isl; every other value is a free parameter, so the answer is safe)."""
    names = ValueNames()
    try:
        equal = [f"{a} = {b}" for a, b in zip(names.subscripts(element), names.subscripts(other))]
    except NotAScop:  # (a subscript isl cannot express: a product of two values)
        return False
    return names.infeasible(equal + names.loop_bounds(loop))


def _hoist_invariant(v, loop) -> bool:
    """True when `v` does not change in `loop`: defined outside it, or computed in its body by pure ops
    (ir_nav.is_pure: affine.apply, arith...) from such values -- which are then moved before the loop."""
    if not defined_inside(v, loop):
        return True
    owner = v.owner
    if isinstance(owner, ir.Block) or not is_pure(owner):
        return False
    unused = unread_positions(ir.AffineMapAttr(owner.attributes["map"]).value) if owner.name == "affine.apply" \
        else set()
    if not all(i in unused or _hoist_invariant(o, loop) for i, o in enumerate(owner.operands)):
        return False
    for i in unused:  # (the regenerated statements pass every loop index to their index maps)
        if defined_inside(owner.operands[i], loop):
            with loop.location, ir.InsertionPoint(loop):
                owner.operands[i] = arith.constant(ir.IndexType.get(), 0)
    owner.move_before(loop)
    return True


def _carried(loop, groups) -> list:
    """(memref, the loads of the value stored one iteration before, the store) for the loop-carried reuse of the
    module docstring."""
    iv = loop.induction_variable
    step = ir.IntegerAttr(loop.attributes["step"]).value
    out = []
    for mem, accs in groups.items():
        stores = [a for a in accs if a.name == "affine.store"]
        if len(stores) != 1:
            continue
        store = stores[0]
        names = ValueNames()
        bounds = names.loop_bounds(loop)
        try:
            now = names.subscripts(store)
            before = _one_iteration_earlier(now, names.of(iv), step)
            if before is None or names.infeasible([_differ(now, before)] + bounds):
                continue  # (the element does not move with the loop: promoted above, or not at all)
            if not names.infeasible([f"{a} = {b}" for a, b in zip(now, before)] + bounds):
                continue  # (it may come back to the same element one iteration later)
            loads = [a for a in accs if a.name == "affine.load" and
                     names.infeasible([_differ(names.subscripts(a), before)] + bounds)]
        except NotAScop:  # (a subscript isl cannot express)
            continue
        if loads and all(_computable_before(v, loop) for v in memref_and_indices(loads[0])[1]):
            out.append((mem, loads, store))
    return out


def _computable_before(v, loop) -> bool:
    """Whether index value `v` of `loop`'s body can be computed before the loop for a given value of its
    induction variable: the variable itself, a value defined outside, or pure ops of such values."""
    if v == loop.induction_variable or not defined_inside(v, loop):
        return True
    owner = v.owner
    return not isinstance(owner, ir.Block) and is_pure(owner) and \
        all(_computable_before(o, loop) for o in owner.operands)


def _before_loop(v, loop, iv_value):
    """Value `v` (see _computable_before) computed before `loop` with its induction variable at `iv_value`,
    by clones of the pure ops that compute it in the body; call at an insertion point before the loop."""
    if v == loop.induction_variable:
        return iv_value
    if not defined_inside(v, loop):
        return v
    clone = v.owner.clone()
    for k, o in enumerate(list(v.owner.operands)):
        clone.operands[k] = _before_loop(o, loop, iv_value)
    return clone.results[list(v.owner.results).index(v)]


def _one_iteration_earlier(subscripts, iv_name, step) -> list | None:
    """isl expressions `subscripts` (of the loop's induction variable named `iv_name`) one iteration (`step`)
    earlier, or None when they do not involve the variable."""
    word = re.compile(rf"\b{iv_name}\b")
    if not any(word.search(e) for e in subscripts):
        return None
    return [word.sub(f"({iv_name} - {step})", e) for e in subscripts]


def _differ(xs, ys) -> str:
    """isl text: some subscript of `xs` differs from its counterpart in `ys`."""
    return " or ".join(f"{a} != {b}" for a, b in zip(xs, ys))


def _promote(loop, disjoint: bool = True) -> int:
    groups = _accesses_by_memref(loop, disjoint)
    found = _candidates(loop, groups) if groups else []
    carried = _carried(loop, {m: a for m, a in groups.items() if m not in {f[0] for f in found}}) if groups else []
    if not found and not carried:
        return 0
    idx_t = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    for k, (_, accs) in enumerate(found):  # (python objects of ops are not stable keys: tag the ops)
        for a in accs:
            a.attributes[TAG] = ir.IntegerAttr.get(i64, k)
    for k, (_, loads, store) in enumerate(carried, len(found)):
        for a in loads:
            a.attributes[TAG] = ir.IntegerAttr.get(i64, k)
        store.attributes[FORWARDED] = ir.IntegerAttr.get(i64, k)
    lb_map, ub_map = loop.attributes["lowerBoundMap"], loop.attributes["upperBoundMap"]
    lb_ops, ub_ops = list(loop.lowerBoundOperands), list(loop.upperBoundOperands)
    with loop.location, ir.InsertionPoint(loop):
        lb = ir.Operation.create("affine.max", results=[idx_t], operands=lb_ops, attributes={"map": lb_map}).result
        ub = ir.Operation.create("affine.min", results=[idx_t], operands=ub_ops, attributes={"map": ub_map}).result
        runs = arith.cmpi(arith.CmpIPredicate.slt, lb, ub)
        inits = []
        where = [(memref_and_indices(accs[0])[1], accs[0].attributes["map"]) for _, accs in found]
        for (mem, accs), (indices, amap) in zip(found, where):
            elem = ir.MemRefType(mem.type).element_type
            sel = scf.IfOp(runs, [elem], has_else=True)
            with ir.InsertionPoint(sel.then_block):
                v = affine.AffineLoadOp(elem, mem, indices, amap).result
                scf.YieldOp([v])
            with ir.InsertionPoint(sel.else_block):
                scf.YieldOp([_zero(elem)])
            inits.append(sel.result)
        for mem, loads, _ in carried:  # (the element the first iteration loads)
            elem = ir.MemRefType(mem.type).element_type
            first = [_before_loop(v, loop, lb) for v in memref_and_indices(loads[0])[1]]
            sel = scf.IfOp(runs, [elem], has_else=True)
            with ir.InsertionPoint(sel.then_block):
                scf.YieldOp([affine.AffineLoadOp(elem, mem, first, loads[0].attributes["map"]).result])
            with ir.InsertionPoint(sel.else_block):
                scf.YieldOp([_zero(elem)])
            inits.append(sel.result)
        new = affine.AffineForOp(ir.AffineMapAttr(lb_map).value, ir.AffineMapAttr(ub_map).value,
                                 ir.IntegerAttr(loop.attributes["step"]).value, inits,
                                 lower_bound_operands=lb_ops, upper_bound_operands=ub_ops)
    with loop.location, ir.InsertionPoint(new.body):
        yield_op = affine.AffineYieldOp(list(new.inner_iter_args))  # operands set once the body is rewritten
    loop.induction_variable.replace_all_uses_with(new.induction_variable)
    for op in list(loop.body.operations)[:-1]:
        op.move_before(yield_op)
    current = list(new.inner_iter_args)
    for op in list(new.body.operations)[:-1]:
        if FORWARDED in op.attributes:  # (the store stays; the next iteration gets its value)
            current[ir.IntegerAttr(op.attributes[FORWARDED]).value] = op.operands[0]
            del op.attributes[FORWARDED]
        if TAG not in op.attributes:
            continue
        k = ir.IntegerAttr(op.attributes[TAG]).value
        if op.name == "affine.load":  # (a carried element's loads all read the previous iteration's value)
            op.result.replace_all_uses_with(current[k] if k < len(found) else list(new.inner_iter_args)[k])
        else:
            current[k] = op.operands[0]
        op.erase()
    for k, v in enumerate(current):
        yield_op.operands[k] = v
    if found:
        with loop.location, ir.InsertionPoint(loop):
            after = scf.IfOp(runs)
            with ir.InsertionPoint(after.then_block):
                for (mem, _), res, (indices, amap) in zip(found, new.results, where):
                    affine.AffineStoreOp(res, mem, indices, amap)
                scf.YieldOp([])
    loop.operation.erase()
    return len(found) + len(carried)


def _zero(t):
    if isinstance(t, ir.FloatType):
        return arith.constant(t, 0.0)
    return arith.constant(t, 0)
