"""Shadow accumulations at neighbouring elements in a reversed loop are carried in registers (loop-carried values).

The reverse sweep of a stencil ``v[j] = u[j-1] + u[j] + u[j+1]`` adds to ``du[j-1]``, ``du[j]`` and ``du[j+1]`` in
every iteration: each element of du is loaded, incremented and stored by three consecutive iterations, so the loop
runs at the latency of store-to-load forwarding and LLVM cannot vectorize it (the dependence distance is one).
Here, in an innermost reversed loop whose only accesses to a shadow are such accumulations (load, addf, store of
the same element), the accumulations of one "stream" (indices ``s * iv + R + c`` with the same unit stride s and
loop-invariant part R, offsets c forming a short contiguous range) are rewritten: the contributions to an element
are summed in a loop-carried value while the element moves through the offsets, and stored once, in the iteration
that touches it last; the elements still pending when the loop ends are stored after it. This is scalar
replacement of subscripted variables across iterations (Callahan, Carr & Kennedy, PLDI'90) applied to adjoint
accumulations, which commute: the shadow ends with the same sum of contributions (added in another order, so
rounding may differ in the last bits, as with any reassociation of a sum).

Conditions (otherwise the loop is left alone): the body has no regions and no op with memory effects other than
memref.load/store; every access to the shadow in the loop is an accumulation; the shadow's memory is reached only
through it (its roots are ``noalias`` arguments of the derivative or allocations inside it, and no other memref
accessed in the loop has the same root).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref, scf

from polygeist_py.gpu_to_cpu.ir_nav import is_pure

from . import partials as P
from .emit import zero
from .activity import MALLOCS

MAX_SPAN = 4  # at most this many loop-carried values per stream


SAFE_TO_HOIST = ("arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.index_cast", "arith.maxsi",
                 "arith.minsi", "arith.extsi", "arith.extui", "arith.trunci", "arith.shli")


def hoist_invariant_index_math(loop) -> None:
    """Move integer ops of `loop`'s body whose operands are all defined outside it in front of the loop (the
    reverse sweep computes row offsets inside the reversed loop; they cannot trap)."""
    body = loop.body
    moved = True
    while moved:
        moved = False
        for op in list(body.operations):
            if op.name in SAFE_TO_HOIST and all(
                    (o.owner != body if isinstance(o.owner, ir.Block) else o.owner.operation.block != body)
                    for o in op.operands):
                op.operation.move_before(loop.operation)
                moved = True


def linear_form(v, iv, body):
    """`v` as {term: coefficient} plus a constant, terms being `iv` and values defined outside loop body `body`;
    None when `v` is not such an integer linear form."""
    owner = v.owner
    if v == iv:
        return {iv: 1}, 0
    if isinstance(owner, ir.Block):
        return ({v: 1}, 0) if owner != body else None
    name = owner.name
    if name == "arith.constant" and isinstance(v.type, (ir.IndexType, ir.IntegerType)):
        return {}, ir.IntegerAttr(owner.attributes["value"]).value
    if owner.operation.block != body:
        return {v: 1}, 0
    if name in ("arith.addi", "arith.subi"):
        a, b = (linear_form(o, iv, body) for o in owner.operands)
        if a is None or b is None:
            return None
        sign = 1 if name == "arith.addi" else -1
        terms = dict(a[0])
        for t, c in b[0].items():
            terms[t] = terms.get(t, 0) + sign * c
        return {t: c for t, c in terms.items() if c}, a[1] + sign * b[1]
    if name == "arith.muli":
        a, b = (linear_form(o, iv, body) for o in owner.operands)
        if a is None or b is None:
            return None
        if not b[0]:
            a, b = b, a
        if a[0]:  # a product of two non-constant forms
            return None
        k = a[1]
        return {t: c * k for t, c in b[0].items() if c * k}, b[1] * k
    return None


def accumulations(body):
    """Accumulations ``store (load M[i] + d), M[i]`` of straight-line block `body`: (load, addf, store, d)."""
    out = []
    ops = list(body.operations)
    for st in ops:
        if st.name != "memref.store" or len(st.operands) != 3:
            continue
        a = st.operands[0]
        if isinstance(a.owner, ir.Block) or a.owner.name != "arith.addf" or len(list(a.uses)) != 1:
            continue
        add = a.owner
        for k in (0, 1):
            ld = add.operands[k].owner
            if isinstance(ld, ir.Block) or ld.name != "memref.load" or ld.operation.block != body:
                continue
            if ld.operands[0] != st.operands[1] or ld.operands[1] != st.operands[2]:
                continue
            if len(list(ld.results[0].uses)) != 1:
                continue
            # nothing else touches the memref between the load and the store
            i, j = ops.index(ld.operation), ops.index(st.operation)
            if any(o.name in ("memref.load", "memref.store") and st.operands[1] in list(o.operands)
                   for o in ops[i + 1:j]):
                continue
            out.append((ld, add, st, add.operands[1 - k]))
            break
    return out


def own_memory(mem, others, func_op, shadows) -> bool:
    """Whether memref `mem`'s memory is reached by none of the other memrefs `others` accessed in the same loop.

    Two different roots (prepare.memory_root) are disjoint when one of them is a ``noalias`` argument of the
    derivative or an allocation made in it, or when one is a shadow argument (in `shadows`) and the other a primal
    argument (a shadow never shares memory with primal data: Enzyme's calling convention)."""
    from .prepare import memory_root
    roots = memory_root(mem)
    if not roots:
        return False
    entry = func_op.regions[0].blocks[0]
    args = set(entry.arguments)
    noalias = set()
    if "arg_attrs" in func_op.attributes:
        for i, d in enumerate(ir.ArrayAttr(func_op.attributes["arg_attrs"])):
            if "llvm.noalias" in ir.DictAttr(d):
                noalias.add(entry.arguments[i])

    def distinct(r):
        owner = r.owner
        return r in noalias or (not isinstance(owner, ir.Block) and (
            owner.name in ("memref.alloca", "memref.alloc")
            or (owner.name == "func.call" and owner.attributes["callee"].value in MALLOCS)))

    def disjoint(r, q):
        if r == q:
            return False
        if distinct(r) or distinct(q):
            return True
        return r in args and q in args and ((r in shadows) != (q in shadows))

    for o in others:
        if o == mem:
            continue
        oroots = memory_root(o)
        if not oroots or not all(disjoint(r, q) for r in roots for q in oroots):
            return False
    return True


def carry_shifted_accumulations(loop, func_op, shadows=frozenset()) -> None:
    """Rewrite innermost scf.for `loop` (a reversed loop of `func_op`, the derivative; `shadows`: its shadow
    arguments) as described in the module docstring; leaves it unchanged when the conditions do not hold or no
    stream benefits."""
    body = loop.body
    iv = loop.induction_variable
    step = loop.operands[2].owner
    if isinstance(step, ir.Block) or step.name != "arith.constant" or \
            ir.IntegerAttr(step.attributes["value"]).value != 1:
        return
    for op in body.operations:
        if len(op.regions) or not (is_pure(op) or op.name in ("memref.load", "memref.store", "scf.yield")):
            return
    accs = accumulations(body)
    if not accs:
        return
    hoist_invariant_index_math(loop)
    if not accs:
        return
    in_acc = {o for a in accs for o in (a[0].operation, a[2].operation)}
    mems = [o.operands[0] if o.name == "memref.load" else o.operands[1]
            for o in body.operations if o.name in ("memref.load", "memref.store")]
    plain = {m for o, m in zip([o for o in body.operations if o.name in ("memref.load", "memref.store")], mems)
             if o.operation not in in_acc}
    streams = {}
    for acc in accs:
        mem = acc[2].operands[1]
        if mem in plain:
            continue
        form = linear_form(acc[2].operands[2], iv, body)
        if form is None:
            continue
        terms, c = form
        s = terms.pop(iv, 0)
        if s not in (1, -1, 0) or not all(isinstance(v.type, ir.IndexType) for v in terms):
            continue
        key = (mem, s, frozenset(terms.items()))
        streams.setdefault(key, []).append((c, acc))
    chosen = []
    for (mem, s, terms), items in streams.items():
        offs = sorted({c for c, _ in items})
        if s == 0:  # loop-invariant elements: each summed in a register, stored after the loop
            if len(offs) > MAX_SPAN:
                continue
        elif len(offs) < 2 or offs[-1] - offs[0] > MAX_SPAN or offs != list(range(offs[0], offs[-1] + 1)):
            continue
        if not own_memory(mem, set(mems), func_op, shadows):
            continue
        chosen.append((mem, s, dict(terms), offs, items))
    if not chosen:
        return
    _rewrite(loop, chosen)


def _rewrite(loop, chosen) -> None:
    body = loop.body
    old_yield = list(body.operations)[-1]
    n_old = len(loop.results)
    t = None
    plans = []  # per stream: (mem, s, terms, offs, items, pending offsets, first offset, last offset)
    inits = []
    with loop.location, ir.InsertionPoint(loop):
        for mem, s, terms, offs, items in chosen:
            delta = -s  # an element at offset c in iteration t is at offset c + delta in iteration t + 1
            first, last = (offs[0], offs[-1]) if delta == 1 else (offs[-1], offs[0])
            pend = [c for c in offs if c != first] if s else list(offs)
            t = ir.MemRefType(mem.type).element_type
            plans.append((mem, s, terms, offs, items, pend, first, last, delta))
            inits += [zero(t) for _ in pend]
        ops = list(loop.operands)
        new = scf.ForOp(ops[0], ops[1], ops[2], list(ops[3:]) + inits)
    nb = new.body
    moved = list(zip(body.arguments, nb.arguments))
    for a, b in moved:
        a.replace_all_uses_with(b)

    def in_new(v):
        # (a contribution may be the old loop's own argument, an adjoint it carries: the new loop's from here on)
        return next((b for a, b in moved if a == v), v)
    with ir.InsertionPoint(nb), loop.location:
        tmp = scf.YieldOp([])
    for o in list(body.operations):
        o.operation.move_before(tmp)
    old_yield = list(nb.operations)[-2]
    outs = list(old_yield.operands)
    k = n_old + 1  # block arguments: iv, old iter_args, pending values
    with ir.InsertionPoint(old_yield), loop.location:
        for mem, s, terms, offs, items, pend, first, last, delta in plans:
            regs = {c: nb.arguments[k + i] for i, c in enumerate(pend)}
            k += len(pend)
            total, index = {}, {}
            for c, (ld, add, st, d) in items:
                index.setdefault(c, st.operands[2])
                d = in_new(d)
                total[c] = d if c not in total else P.accumulate(total[c], d)
            for c in offs:
                if c in regs:
                    total[c] = regs[c] if c not in total else P.accumulate(regs[c], total[c])
            if s:
                old = memref.LoadOp(mem, [index[last]]).result
                memref.StoreOp(P.accumulate(old, total[last]), mem, [index[last]])
                nxt = {c + delta: total[c] for c in offs if c != last}
            else:
                nxt = total
            outs += [nxt[c] for c in pend]
            for c, (ld, add, st, d) in items:
                st.operation.erase()
                add.operation.erase()
                ld.operation.erase()
        scf.YieldOp(outs)
    old_yield.operation.erase()
    tmp.operation.erase()
    for a, b in zip(loop.results, list(new.results)[:n_old]):
        a.replace_all_uses_with(b)
    # the elements still pending after the last iteration (iv = ub): stored when the loop ran at least once
    res = list(new.results)[n_old:]
    ops = list(loop.operands)
    with ir.InsertionPoint.after(new), loop.location:
        ran = arith.cmpi(arith.CmpIPredicate.slt, ops[0], ops[1])
        guard = scf.IfOp(ran)
        with ir.InsertionPoint(guard.then_block):
            j = 0
            for mem, s, terms, offs, items, pend, first, last, delta in plans:
                base = _emit_form(terms, s, ops[1])
                for c in pend:
                    idx = arith.addi(base, arith.constant(ir.IndexType.get(), c))
                    old = memref.LoadOp(mem, [idx]).result
                    memref.StoreOp(P.accumulate(old, res[j]), mem, [idx])
                    j += 1
            scf.YieldOp([])
    loop.operation.erase()


def _emit_form(terms, s, ub):
    """sum(coefficient * term) + s * ub (index values; s = 0: no ub term)."""
    idx = ir.IndexType.get()
    acc = ub if s == 1 else arith.muli(ub, arith.constant(idx, s)) if s else arith.constant(idx, 0)
    for term, c in terms.items():
        v = term if c == 1 else arith.muli(term, arith.constant(idx, c))
        acc = arith.addi(acc, v)
    return acc
