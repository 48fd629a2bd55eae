"""Thread-strided loops -> loops around the thread loop (a `--cpuify` optimization after barrier elimination).

CUDA code walks arrays with per-thread strided loops, ``for (i = base + tid; i < n; i += stride)`` (grid-stride
and block-stride loops). Run as a serial loop over threads, each thread sweeps the whole array on its own: the
CPU reads every cache line once per thread that touches it and nothing vectorizes. This pass turns such a loop
at the top level of a (barrier-free) thread loop into one uniform loop around a new thread loop:

    par (t) { A; for (i = u + d(t); i < n; i += s) B(i); C }
 -> par (t) { A }; for (j = u; j < n; j += s) { par (t) { i = j + d(t); if (i < n) B(i) } }; par (t) { C }

where ``u`` and ``s`` are the same for all threads and ``d(t) >= 0`` is built from thread ids with non-negative
factors (``tid``, ``threadIdx.x + blockDim.x * threadIdx.y``, ...). Thread t runs exactly its own iterations, in
its order: j goes through u, u+s, ... and ``i = j + d(t)`` is thread t's m-th index; ``j < n`` holds whenever
``i < n`` does because d(t) >= 0, and the guard drops the rest. Threads of a barrier-free thread loop are
independent (CUDA has no order between them without a barrier), so running iteration m of all threads before
iteration m+1 is one of their legal schedules. The fission itself (values passed between the pieces, per-thread
loop-carried values such as partial sums kept in per-block caches) is barrier_elimination.py's interchange, as if
the loop held a ``__syncthreads()``; afterwards consecutive threads touch consecutive elements in the innermost
loop (Polygeist, PPoPP'23, interchanges parallel loops for the same reason).

The same interchange applies to a loop with block-uniform bounds (``for (k = 0; k < K; k++) acc += A[row*K+k] *
B[k*N+col]``, possibly under a per-thread guard ``if (row < M && col < N)``, which moves into the loop body) when
it pays: the loop is innermost, its trip count is not a small constant (those unroll and vectorize as they are),
and it accesses memory contiguously in threadIdx.x but not in its own induction variable. The thread loop then
runs inside it over consecutive elements, like the i-k-j order of a hand-written matrix product.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from .barrier_elimination import _cacheable, _hoist_uniform, _interchange, _uniform
from .ir_nav import (TRAPPING, body_ops, collect, defined_inside, is_pure, loop_bounds, replace_uses_inside,
                     within)
from .launch_to_loops import is_thread_loop

GRID_STRIDE = "pgcc.grid_stride"  # on an interchanged grid-stride scf.while: the index of its carried index
CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")
# condition predicates `iv PRED n` that bound a loop whose induction variable grows
UPPER = {"slt", "ult", "sle", "ule"}
SWAPPED = {"sgt": "slt", "ugt": "ult", "sge": "sle", "uge": "ule"}
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def interchange_strided_loops(module: ir.Module) -> None:
    """Interchange, at the top level of every thread loop of `module` (in place), the thread-strided loops
    (scf.while and scf.for forms) and the block-uniform innermost loops that pay (see the module docstring).

    Must run after barrier elimination (thread loops without barriers) and before serialization; loops that do
    not match the patterns exactly are left alone, so it raises nothing (the fission it reuses cannot fail on
    what _splittable accepts)."""
    work = collect(module.operation, is_thread_loop)
    while work:
        p = work.pop()
        for w in body_ops(p):
            if w.name == "scf.while":
                plan = _match(p, w)
                if plan is not None:
                    work += _rewrite(p, w, *plan)
                    break
            elif w.name == "scf.for" and _match_strided_for(p, w):
                work += _rewrite_strided_for(p, w)
                break
            elif w.name in ("scf.for", "scf.if"):
                loop = _match_uniform_for(p, w)
                if loop is not None:
                    work += _rewrite_uniform_for(p, w, loop)
                    break


def _match(p, w):
    """(k, cmp, n, stride) when scf.while `w` in thread loop `p` is a thread-strided loop on carried value k."""
    before, after = w.regions[0].blocks[0], w.regions[1].blocks[0]
    bops, aops = list(before.operations), list(after.operations)
    bargs, aargs = list(before.arguments), list(after.arguments)
    if len(bops) != 2 or bops[0].name != "arith.cmpi" or len(bargs) != len(aargs):
        return None
    cmp, cond = bops
    if cond.operands[0] != cmp.results[0] or list(cond.operands)[1:] != bargs:
        return None
    pred = PREDICATES[ir.IntegerAttr(cmp.attributes["predicate"]).value]
    lhs, rhs = cmp.operands
    if pred in UPPER and lhs in bargs:
        k, n = bargs.index(lhs), rhs
    elif pred in SWAPPED and rhs in bargs:
        k, n = bargs.index(rhs), lhs
    else:
        return None
    if not _uniform(n, p) or defined_inside(n, w) or list(w.results[k].uses):
        return None
    if any(u.owner.operation != cond.operation for i, a in enumerate(bargs) if i != k for u in a.uses):
        return None
    step = aops[-1].operands[k].owner
    if isinstance(step, ir.Block) or step.name != "arith.addi" or aargs[k] not in list(step.operands):
        return None
    stride = step.operands[1] if step.operands[0] == aargs[k] else step.operands[0]
    if defined_inside(stride, w) or not _uniform(stride, p) or not _positive_const_or_uniform(stride):
        return None
    init = w.operands[k]
    if not all(_cacheable(a.type) for a in aargs) or not _thread_offset(init, p) or not _splittable(p, w):
        return None
    return k, cmp, n, stride


def _splittable(p, w) -> bool:
    """True when fission of thread loop `p` around its op `w` cannot fail: every value defined before `w` and
    used from `w` on is cacheable or recomputable from cacheable ones (no local arrays, say). The callers check
    that w's loop-carried values are cacheable."""
    before = []
    for op in body_ops(p):
        if op.operation == w.operation:
            break
        before.append(op)
    defined = {r: op for op in before for r in op.results}
    later = [o for o in body_ops(p)[len(before):]]
    work = [r for r in defined if any(within(u.owner, o) for u in r.uses for o in later)]
    seen = set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        op = defined[v]
        if is_pure(op):
            work += [o for o in op.operands if o in defined]
        elif not _cacheable(v.type):
            return False
    return True


def _positive_const_or_uniform(v) -> bool:
    """A stride that is not a constant <= 0 (a constant stride must be positive; a uniform runtime stride is
    positive in every terminating CUDA loop of this form)."""
    owner = v.owner
    if not isinstance(owner, ir.Block) and owner.name == "arith.constant":
        return ir.IntegerAttr(owner.attributes["value"]).value > 0
    return True


def _thread_offset(v, p) -> bool:
    """True when v = (uniform) + d(t) with d built from p's thread ids by +, casts and multiplication by
    non-negative constants or p's bounds (blockDim), so that d(t) >= d(0) = 0; d must not be zero everywhere."""
    kind = _offset_kind(v, p)
    return kind == "offset"


def _offset_kind(v, p):
    """'uniform', 'offset' (uniform + non-negative thread term) or None (anything else)."""
    args = list(p.regions[0].blocks[0].arguments)
    if v in args:
        return "offset"
    if _uniform(v, p):
        return "uniform"
    owner = v.owner
    if isinstance(owner, ir.Block) or not is_pure(owner):
        return None
    if owner.name in CASTS:  # a small non-negative thread term keeps its value through any widening cast
        return _offset_kind(owner.operands[0], p)
    if owner.name == "arith.addi":
        kinds = [_offset_kind(o, p) for o in owner.operands]
        if None in kinds:
            return None
        return "offset" if "offset" in kinds else "uniform"
    if owner.name == "arith.muli":
        kinds = [_offset_kind(o, p) for o in owner.operands]
        if kinds.count("offset") == 1 and kinds.count("uniform") == 1:
            factor = owner.operands[kinds.index("uniform")]
            return "offset" if _non_negative(factor, p) else None
        return None
    return None


def _non_negative(v, p) -> bool:
    """A constant >= 0 or (a cast of) one of p's upper bounds (blockDim)."""
    owner = v.owner
    while not isinstance(owner, ir.Block) and owner.name in ("arith.index_castui", "arith.index_cast",
                                                             "arith.extui", "arith.trunci"):
        v = owner.operands[0]
        owner = v.owner
    if v in list(loop_bounds(p)[1]):
        return True
    if not isinstance(owner, ir.Block) and owner.name == "arith.constant":
        return ir.IntegerAttr(owner.attributes["value"]).value >= 0
    return False


def _at_thread_zero(v, p, before, memo):
    """The value of pure expression `v` in thread 0 of loop `p` (clones inserted before op `before`)."""
    if v in memo:
        return memo[v]
    args = list(p.regions[0].blocks[0].arguments)
    if v in args:
        with before.location, ir.InsertionPoint(before):
            r = arith.constant(v.type, 0)
    elif not defined_inside(v, p):
        r = v
    else:
        op = v.owner
        operands = [_at_thread_zero(o, p, before, memo) for o in op.operands]  # first: keep defs before uses
        clone = op.clone(ip=ir.InsertionPoint(before))
        for i, o in enumerate(operands):
            clone.operands[i] = o
        for res, c in zip(op.results, clone.results):
            memo[res] = c
        r = memo[v]
    memo[v] = r
    return r


def _rewrite(p, w, k, cmp, n, stride) -> list:
    """Guard the body with ``i < n`` on ``i = j + d(t)`` (unless no thread's i can reach n), make carried value k
    uniform (start u, step s), then interchange `w` out of `p`. Returns the thread loops that may hold more such
    loops."""
    init = w.operands[k]
    pred = PREDICATES[ir.IntegerAttr(cmp.attributes["predicate"]).value]
    unguarded = pred in ("slt", "ult") and cmp.operands[0] == w.regions[0].blocks[0].arguments[k] \
        and _never_overruns(p, init, n, stride)
    with w.location, ir.InsertionPoint(w):
        start = _at_thread_zero(init, p, w, {})
        delta = arith.subi(init, start)
    w.operands[k] = start
    after = w.regions[1].blocks[0]
    aargs = list(after.arguments)
    ops = list(after.operations)
    old_yield = ops[-1]
    with w.location, ir.InsertionPoint(ops[0]):
        i_val = arith.addi(aargs[k], delta)
    if unguarded:
        step = old_yield.operands[k].owner  # j + s: keeps stepping j, not i
        replace_uses_inside(aargs[k], i_val, w)
        i_val.owner.operands[0] = aargs[k]
        step.operands[list(step.operands).index(i_val)] = aargs[k]
    else:
        carried = [o for i, o in enumerate(old_yield.operands) if i != k]
        others = [a for i, a in enumerate(aargs) if i != k]
        with w.location, ir.InsertionPoint(ops[0]):
            guard = cmp.clone(ip=ir.InsertionPoint(ops[0]))
            guard.operands[list(cmp.operands).index(w.regions[0].blocks[0].arguments[k])] = i_val
            body = scf.IfOp(guard.results[0], [a.type for a in others], has_else=True)
            with ir.InsertionPoint(body.else_block):
                scf.YieldOp(others)
            with ir.InsertionPoint(body.then_block):
                then_yield = scf.YieldOp(carried)
        for op in ops[:-1]:
            op.move_before(then_yield)
        replace_uses_inside(aargs[k], i_val, body)
        with w.location, ir.InsertionPoint(old_yield):
            nxt = arith.addi(aargs[k], stride)
            results = iter(body.results)
            scf.YieldOp([nxt if i == k else next(results) for i in range(len(aargs))])
        old_yield.erase()
    _mark_grid_stride(w, k, stride)
    _hoist_uniform(p, stop=w)
    return _interchange(p, w)


def _mark_grid_stride(w, k, stride) -> None:
    """Mark an interchanged while loop whose stride is not a compile-time constant (a grid-stride loop: it
    jumps over the other blocks' chunks) with GRID_STRIDE = k, its carried index; see grid_stride_prefetch.py."""
    owner = stride.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        w.attributes[GRID_STRIDE] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), k)


def _match_strided_for(p, loop) -> bool:
    """True for ``scf.for (i = u + d(t); i < n; i += s)`` with n and s uniform (the scf.for form of a
    thread-strided loop, e.g. ``for (k = threadIdx.x; k < 400; k += 16)`` with constant bounds)."""
    lb, ub, step = list(loop.operands)[:3]
    return (_uniform(ub, p) and _uniform(step, p) and _thread_offset(lb, p)
            and all(_cacheable(a.type) for a in list(loop.regions[0].blocks[0].arguments)[1:])
            and _splittable(p, loop))


def _rewrite_strided_for(p, loop) -> list:
    """Start the loop at thread 0's start, run the body for ``i = j + d(t)`` when ``i < n``, interchange."""
    lb, ub = list(loop.operands)[:2]
    with loop.location, ir.InsertionPoint(loop):
        start = _at_thread_zero(lb, p, loop, {})
        delta = arith.subi(lb, start)
    loop.operands[0] = start
    body = loop.regions[0].blocks[0]
    iv = body.arguments[0]
    ops = list(body.operations)
    with loop.location, ir.InsertionPoint(ops[0]):
        i_val = arith.addi(iv, delta)
    if not _never_overruns(p, lb, ub, loop.operands[2]):
        with loop.location, ir.InsertionPoint(ops[0]):
            inside = arith.cmpi(arith.CmpIPredicate.slt, i_val, ub)
        _guard_loop_body(loop, inside, first=2)
    replace_uses_inside(iv, i_val, loop)
    i_val.owner.operands[0] = iv  # the replacement above also rewrote i = iv + d itself
    _hoist_uniform(p, stop=loop)
    return _interchange(p, loop)


def _never_overruns(p, first, n, stride) -> bool:
    """True when, with constant thread extents, start, bound and stride, no thread's index ``i = j + d(t)`` of
    the interchanged loop reaches n: the last uniform j plus the largest thread offset stays below n (e.g.
    ``for (k = tid; k < 400; k += 16)`` in 16 threads), so the body needs no ``i < n`` guard -- a guard that
    LLVM vectorizes with gathers and scatters instead of plain vector loads and stores."""
    extents = [_int_value(u, {}) for u in loop_bounds(p)[1]]
    if None in extents or any(_int_value(lb, {}) != 0 for lb in loop_bounds(p)[0]):
        return False
    args = list(p.regions[0].blocks[0].arguments)
    start = _int_value(first, {a: 0 for a in args})
    top = _int_value(first, {a: e - 1 for a, e in zip(args, extents)})
    bound, step = _int_value(n, {}), _int_value(stride, {})
    if None in (start, top, bound, step) or step <= 0 or min(extents) <= 0:
        return False
    if bound <= start:
        return True
    last = start + step * ((bound - 1 - start) // step)
    return last + (top - start) < bound


def _int_value(v, threads):
    """The integer value of v built by constants, casts, +, -, * from the thread ids given in `threads`
    (block argument -> int); None when it depends on anything else."""
    if v in threads:
        return threads[v]
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    if owner.name == "arith.constant":
        try:
            return ir.IntegerAttr(owner.attributes["value"]).value
        except ValueError:
            return None
    if owner.name in CASTS:
        return _int_value(owner.operands[0], threads)
    ops = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b}
    if owner.name in ops:
        a, b = (_int_value(o, threads) for o in owner.operands)
        return None if a is None or b is None else ops[owner.name](a, b)
    return None


def _guard_loop_body(loop, cond, first=0) -> None:
    """Wrap the body of scf.for `loop` (from its op number `first`) in ``if (cond)``; the carried values pass
    through unchanged when cond is false."""
    body = loop.regions[0].blocks[0]
    ops = list(body.operations)
    old_yield = ops[-1]
    carried = list(body.arguments)[1:]
    with loop.location, ir.InsertionPoint(old_yield):
        guarded = scf.IfOp(cond, [a.type for a in carried], has_else=bool(carried))
        if carried:
            with ir.InsertionPoint(guarded.else_block):
                scf.YieldOp(carried)
        with ir.InsertionPoint(guarded.then_block):
            then_yield = scf.YieldOp(list(old_yield.operands))
    for o in ops[first:-1]:
        o.move_before(then_yield)
    with loop.location, ir.InsertionPoint(old_yield):
        scf.YieldOp(list(guarded.results))
    old_yield.erase()


# ------------------------------------------------------------------------------------ uniform-bound loops
LOOPS = ("scf.for", "scf.while", "scf.parallel", "affine.for", "affine.parallel")
SMALL_TRIP = 64


def _match_uniform_for(p, op):
    """The scf.for to interchange when `op` (top level of thread loop `p`) is such a loop or a per-thread guard
    ``if (c) { pure ops; loop; rest }`` around one; else None."""
    if op.name == "scf.for":
        loop = op
    else:
        if len(op.results) or len(op.regions[1].blocks):
            return None
        inner = list(op.regions[0].blocks[0].operations)[:-1]
        loops = [o for o in inner if o.name == "scf.for"]
        if len(loops) != 1:
            return None
        loop = loops[0]
        head = []
        for o in inner:
            if o.operation == loop.operation:
                break
            head.append(o)
        if not all(is_pure(o) and o.operation.name not in TRAPPING for o in head):
            return None
        if any(o.name in LOOPS or collect(o, lambda x: x.name in LOOPS) for o in inner if o.operation != loop.operation):
            return None
    lb, ub, step = list(loop.operands)[:3]
    if not all(_uniform(v, p) for v in (lb, ub, step)):
        return None
    if collect(loop, lambda x: x.name in LOOPS or x.name == "func.call" or x.name == "llvm.call"):
        return None
    trip = _const_trip(lb, ub, step)
    if trip is not None and trip <= SMALL_TRIP:
        return None
    if not all(_cacheable(a.type) for a in list(loop.regions[0].blocks[0].arguments)[1:]):
        return None
    if not _pays(p, loop) or not _splittable(p, op):
        return None
    return loop


def _const_trip(lb, ub, step):
    vals = []
    for v in (lb, ub, step):
        o = v.owner
        if isinstance(o, ir.Block) or o.name != "arith.constant":
            return None
        vals.append(ir.IntegerAttr(o.attributes["value"]).value)
    return max(0, (vals[1] - vals[0] + vals[2] - 1) // vals[2]) if vals[2] > 0 else None


def _pays(p, loop) -> bool:
    """True when some access in `loop` is contiguous in threadIdx.x but strided (not unit) in the loop's
    induction variable: after the interchange the thread loop walks it contiguously."""
    tx = p.regions[0].blocks[0].arguments[0]
    iv = loop.regions[0].blocks[0].arguments[0]
    for acc in collect(loop, lambda o: o.name in ("memref.load", "memref.store")):
        idx = list(acc.operands)[1:] if acc.name == "memref.load" else list(acc.operands)[2:]
        if not idx:
            continue
        last, rest = idx[-1], idx[:-1]
        if any(depends_on(v, tx) for v in rest) or not unit_in(last, tx):
            continue
        if (depends_on(last, iv) or any(depends_on(v, iv) for v in rest)) and not (
                unit_in(last, iv) and not any(depends_on(v, iv) for v in rest)):
            return True
    return False


def depends_on(v, x, memo=None) -> bool:
    """True when value v is computed from x (through the operands of the ops defining it)."""
    memo = {} if memo is None else memo
    if v == x:
        return True
    if v in memo:
        return memo[v]
    memo[v] = False
    owner = v.owner
    r = not isinstance(owner, ir.Block) and any(depends_on(o, x, memo) for o in owner.operands)
    memo[v] = r
    return r


def unit_in(v, x) -> bool:
    """True when v = x + (something not computed from x), through integer casts and additions."""
    if v == x:
        return True
    owner = v.owner
    if isinstance(owner, ir.Block):
        return False
    if owner.name in CASTS:
        return unit_in(owner.operands[0], x)
    if owner.name == "arith.addi":
        a, b = owner.operands
        return (unit_in(a, x) and not depends_on(b, x)) or (unit_in(b, x) and not depends_on(a, x))
    if owner.name == "arith.subi":
        a, b = owner.operands
        return unit_in(a, x) and not depends_on(b, x)
    return False


def _rewrite_uniform_for(p, op, loop) -> list:
    """Move a guard into the loop body (``if (c) {A; for {S}; B}`` -> ``A; for {if (c) S}; if (c) {B}``, A
    pure), then interchange the loop out of `p`."""
    if op.operation != loop.operation:
        cond = op.operands[0]
        for o in list(op.regions[0].blocks[0].operations):
            if o.operation == loop.operation:
                break
            o.move_before(op)
        loop.move_before(op)
        _guard_loop_body(loop, cond)
        if len(list(op.regions[0].blocks[0].operations)) == 1:
            op.erase()
    _hoist_uniform(p, stop=loop)
    return _interchange(p, loop)
