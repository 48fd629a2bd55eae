"""Thread-id guards -> thread-loop bounds (a `--cpuify` optimization after barrier elimination).

Guarantees: a barrier-free thread loop whose body is pure arithmetic followed by one ``if`` (no else, no results)
whose condition is a conjunction of tests of one thread id against block-uniform values -- ``tid < active``,
``threadIdx.x == 0``, ``tx >= s + 1``, ``blockIdx.y * 16 + ty < M`` -- loses the ``if``; the tests become the
bounds of the loop: ``par (tx) in [0, n) { if (tx < a) B }`` -> ``par (tx) in [max(0, ..), min(n, a)) B``.
The threads cut off did nothing (the ops before the ``if`` have no effects); the others run the same code.
A test ``u + tid < n`` is read as ``tid < n - u`` (``u - tid < n`` as ``tid > u - n``), which is exact for signed C integers (signed overflow is
undefined in C, so ``u + tid`` does not wrap); unsigned tests are narrowed only on the bare thread id.
Guards that also test data are left alone, and so are the threadIdx.x tests of a short (<= 32) x extent when
the guarded code is loop-free and contiguous in threadIdx.x: with them the x loop keeps its constant trip count,
which LLVM vectorizes with masks, while a narrowed short loop stays scalar (measured on a hotspot-like stencil).
Tests on y and z, ``==`` tests, guards around loops (a naive matrix product) and guards around code that
cannot vectorize anyway (a wavefront's anti-diagonal) are narrowed. Thread ids, blockDim and per-thread caches do not depend on the
bounds of the loop once launch_to_loops.py has bound them, so nothing else changes.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from .barrier_elimination import _hoist_uniform
from .ir_nav import body_ops, collect, defined_inside, inline_then, is_pure, loop_bounds
from .launch_to_loops import is_thread_loop

PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
SWAP = {"eq": "eq", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
        "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}
CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")
SIGNED_CASTS = ("arith.index_cast", "arith.extsi")
SMALL_X = 32  # x extents up to this keep their x tests (LLVM does not vectorize loops of < 16 iterations
              # that need runtime checks; a constant 16 with the test inside vectorizes with masks)
NARROWED = "pgcc.narrowed"  # marks min(blockDim, bound): its first operand is the thread loop's full extent


def narrow_guarded_thread_loops(module: ir.Module) -> None:
    """Apply the narrowing to every thread loop of `module` (in place); loops that do not match are left
    alone, so it raises nothing."""
    for p in collect(module.operation, is_thread_loop):
        _narrow(p)


def _narrow(p) -> None:
    _hoist_uniform(p)
    ops = body_ops(p)
    if not ops or ops[-1].name != "scf.if":
        return
    guard = ops[-1]
    if len(guard.results) or len(guard.regions[1].blocks) or not all(is_pure(op) for op in ops[:-1]):
        return
    conjuncts = _conjuncts(guard.operands[0])
    tests = [_thread_test(c, p) for c in conjuncts]
    if None in tests:
        return
    n = len(p.regions[0].blocks[0].arguments)
    idx = ir.IndexType.get()
    x_extent = _constant(loop_bounds(p)[1][0])
    keep_x = x_extent is not None and x_extent <= SMALL_X and _vectorizable_in_x(p, guard)
    narrowed = []
    for conj, (d, pred, bound) in zip(conjuncts, tests):
        if d == 0 and pred != "eq" and keep_x:
            continue  # keep: a short x loop with a constant trip count vectorizes, a narrowed one does not
        narrowed.append(conj)
        with guard.location, ir.InsertionPoint(p):
            one = arith.constant(idx, 1)
            lbs, ubs = loop_bounds(p)[:2]
            lb, ub = lbs[d], ubs[d]
            if pred in ("slt", "ult"):
                ub = arith.minsi(ub, bound)
            elif pred in ("sle", "ule"):
                ub = arith.minsi(ub, arith.addi(bound, one))
            elif pred in ("sgt", "ugt"):
                lb = arith.maxsi(lb, arith.addi(bound, one))
            elif pred in ("sge", "uge"):
                lb = arith.maxsi(lb, bound)
            else:  # eq
                lb, ub = arith.maxsi(lb, bound), arith.minsi(ub, arith.addi(bound, one))
        if ub.owner.name == "arith.minsi":
            ub.owner.attributes[NARROWED] = ir.UnitAttr.get()  # per-thread caches keep the full extent
        p.operands[d], p.operands[n + d] = lb, ub
    if len(narrowed) < len(conjuncts):
        with guard.location, ir.InsertionPoint(guard):
            true = arith.constant(ir.IntegerType.get_signless(1), 1)
        for conj in narrowed:
            for use in list(conj.uses):
                use.owner.operands[use.operand_number] = true
        return
    inline_then(guard)


def _vectorizable_in_x(p, guard) -> bool:
    """True when the guarded code has no loop, computes something (not only loads and stores) and every memory
    access in it is independent of threadIdx.x or contiguous in it (last subscript = tx + something independent
    of tx, the others independent of tx). A guarded plain copy (hotspot's ``if (update) t_cur = t_new`` and its
    write-back) is better narrowed: LLVM's cost model turns down masked loads and stores for it and unrolls it
    into 16 branches, while the narrowed loop is a contiguous copy (20% of the hotspot example)."""
    from .thread_loop_interchange import depends_on, unit_in

    if collect(guard, lambda o: o.name in ("scf.for", "scf.while", "scf.parallel")):
        return False
    if _plain_copy(guard):
        return False
    tx = p.regions[0].blocks[0].arguments[0]
    for acc in collect(guard, lambda o: o.name in ("memref.load", "memref.store")):
        idx = list(acc.operands)[1:] if acc.name == "memref.load" else list(acc.operands)[2:]
        if not idx or not any(depends_on(v, tx) for v in idx):
            continue
        if any(depends_on(v, tx) for v in idx[:-1]) or not unit_in(idx[-1], tx):
            return False
    return True


def _plain_copy(guard) -> bool:
    """Every store under `guard` stores a value loaded from memory or a constant (nothing is computed)."""
    stores = collect(guard, lambda o: o.name == "memref.store")
    return bool(stores) and all(not isinstance(st.operands[0].owner, ir.Block)
                                and st.operands[0].owner.name in ("memref.load", "arith.constant") for st in stores)


def _constant(v):
    o = v.owner
    if isinstance(o, ir.Block) or o.name != "arith.constant":
        return None
    return ir.IntegerAttr(o.attributes["value"]).value


def _conjuncts(v) -> list:
    """The i1 values whose conjunction (an arith.andi tree) is v."""
    owner = v.owner
    if not isinstance(owner, ir.Block) and owner.name == "arith.andi":
        return _conjuncts(owner.operands[0]) + _conjuncts(owner.operands[1])
    return [v]


def _thread_test(v, p):
    """(dimension, predicate, bound as index) when v is ``tid_d PRED bound`` for a thread id of loop `p` and a
    bound computed before `p` (the bound value is created before p); None otherwise."""
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.cmpi":
        return None
    pred = PREDICATES[ir.IntegerAttr(owner.attributes["predicate"]).value]
    if pred == "ne":
        return None
    args = list(p.regions[0].blocks[0].arguments)
    lhs, rhs = owner.operands
    for a, b, pr in ((lhs, rhs, pred), (rhs, lhs, SWAP[pred])):
        if defined_inside(b, p):
            continue
        found = _id_plus(a, args, p, pr.startswith("s") or pr == "eq")
        if found is None:
            continue
        d, offset, negated = found
        if pr.startswith("u") and offset is not None:
            continue
        if pr.startswith("u") and not isinstance(b.type, ir.IndexType) and ir.IntegerType(b.type).width >= 64:
            continue  # a huge unsigned bound would read as negative in index arithmetic
        if pr == "eq" and offset is not None:
            continue
        with owner.location, ir.InsertionPoint(p):
            bound = _to_index(b, pr.startswith("u"))
            if negated:  # u - id PRED b  <=>  id SWAP(PRED) u - b
                pr, bound = SWAP[pr], arith.subi(_to_index(offset, False), bound)
            elif offset is not None:
                bound = arith.subi(bound, _to_index(offset, False))
        return d, pr, bound
    return None


def _id_plus(v, args, p, signed):
    """(d, offset, negated) when v = thread id d through any casts (offset None), or, for signed tests,
    v = u + id or v = u - id (negated) with u computed before p, through sign-preserving casts only."""
    d = _bare_id(v, args)
    if d is not None:
        return d, None, False
    if not signed:
        return None
    while not isinstance(v.owner, ir.Block) and v.owner.name in SIGNED_CASTS:
        v = v.owner.operands[0]
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name not in ("arith.addi", "arith.subi"):
        return None
    pairs = [(owner.operands[1], owner.operands[0], True)] if owner.name == "arith.subi" else [
        (owner.operands[0], owner.operands[1], False), (owner.operands[1], owner.operands[0], False)]
    for x, u, negated in pairs:
        if defined_inside(u, p):
            continue
        d = _bare_id(x, args)
        if d is not None:
            return d, u, negated
    return None


def _bare_id(v, args):
    while not isinstance(v.owner, ir.Block) and v.owner.name in CASTS:
        v = v.owner.operands[0]
    return args.index(v) if v in args else None


def _to_index(v, unsigned):
    if isinstance(v.type, ir.IndexType):
        return v
    return (arith.index_castui if unsigned else arith.index_cast)(ir.IndexType.get(), v)
