"""Barrier-free thread loops -> serial loop nests, x innermost (the last step of `--cpuify`).

Guarantees: each ``scf.parallel (tx, ty, tz) {pgcc.threads}`` (after barrier elimination, so its iterations are
independent) becomes ``scf.for tz { scf.for ty { scf.for tx { body } } }``. Consecutive threads touch
consecutive data in CUDA code, so tx innermost gives stride-1 accesses the LLVM loop vectorizer can use; the
block loop around it stays parallel and becomes the OpenMP loop.

When a thread loop's body is one ``if`` whose condition is only tests of thread ids against block-uniform values
(``if (tid < active)``, ``if (threadIdx.x == 0)``, ``if (tx >= s && ty < h)``) and it computes nothing else with
an effect, those tests become the bounds of the serial loops: ``for tx in [0, n) { if (tx < a) B }`` ->
``for tx in [0, min(n, a)) B``. The skipped iterations did nothing, the others run in the same order. (A guard
that also tests data is left alone: measured, narrowing only some of its tests made hotspot-like stencils
slower, because the constant trip count of a block vectorizes better.)
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from .ir_nav import collect, defined_inside, is_pure, loop_bounds
from .launch_to_loops import is_thread_loop


def serialize_thread_loops(module: ir.Module) -> None:
    """Rewrite every thread loop of `module` as serial scf.for loops (in place)."""
    for par in collect(module.operation, is_thread_loop):
        serialize(par)


def serialize(par) -> None:
    lbs, ubs, steps = loop_bounds(par)
    n = len(lbs)
    body = par.regions[0].blocks[0]
    loops = []
    with par.location, ir.InsertionPoint(par):
        ip = ir.InsertionPoint(par)
        for d in reversed(range(n)):  # z outermost, x innermost
            with ip:
                loop = scf.ForOp(lbs[d], ubs[d], steps[d])
                with ir.InsertionPoint(loop.body):
                    scf.YieldOp([])
            loops.append((d, loop))
            ip = ir.InsertionPoint(list(loop.body.operations)[-1])
    innermost = loops[-1][1]
    term = list(innermost.body.operations)[-1]
    for d, loop in loops:
        body.arguments[d].replace_all_uses_with(loop.induction_variable)
    for op in list(body.operations)[:-1]:
        op.move_before(term)
    par.erase()
    _narrow_to_guard([loop for _, loop in loops])


PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
SWAP = {"eq": "eq", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
        "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}
CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")


def _narrow_to_guard(nest) -> None:
    """Turn the thread-id tests of a lone guard in the innermost loop of `nest` (outermost first) into bounds."""
    inner = nest[-1]
    ops = list(inner.body.operations)
    guard = ops[-2] if len(ops) >= 2 else None
    if guard is None or guard.name != "scf.if" or len(guard.results) or len(guard.regions[1].blocks):
        return
    if not all(is_pure(op) for op in ops[:-2]):
        return
    ivs = {loop.induction_variable: loop for loop in nest}
    outer = nest[0]
    conjuncts = _conjuncts(guard.operands[0])
    tests = [_thread_test(c, ivs, outer) for c in conjuncts]
    if None in tests:
        return  # a guard that stays (e.g. on data) keeps the constant trip counts, which vectorize better
    for conj, (loop, pred, bound) in zip(conjuncts, tests):
        with conj.owner.location, ir.InsertionPoint(outer):
            idx = ir.IndexType.get()
            if bound.type != idx:
                cast = arith.index_castui if pred.startswith("u") else arith.index_cast
                bound = cast(idx, bound)
            one = arith.constant(idx, 1)
            lb, ub = loop.operands[0], loop.operands[1]
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
        loop.operands[0], loop.operands[1] = lb, ub
        with conj.owner.location, ir.InsertionPoint(guard):
            true = arith.constant(ir.IntegerType.get_signless(1), 1)
        for use in list(conj.uses):
            if use.owner.operation == guard.operation or use.owner.name == "arith.andi":
                use.owner.operands[use.operand_number] = true


def _conjuncts(v) -> list:
    """The i1 values whose conjunction (arith.andi tree) is v."""
    owner = v.owner
    if not isinstance(owner, ir.Block) and owner.name == "arith.andi" and len(list(v.uses)) == 1:
        return _conjuncts(owner.operands[0]) + _conjuncts(owner.operands[1])
    return [v]


def _thread_test(v, ivs, outer):
    """(loop, predicate, bound) when v is ``iv PRED bound`` for the induction variable of one of the loops and a
    bound defined outside the nest (casts of iv allowed; unsigned tests only on zero-extended ivs)."""
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.cmpi" or len(list(v.uses)) != 1:
        return None
    pred = PREDICATES[ir.IntegerAttr(owner.attributes["predicate"]).value]
    if pred == "ne":
        return None
    lhs, rhs = owner.operands
    for a, b, p in ((lhs, rhs, pred), (rhs, lhs, SWAP[pred])):
        iv = _strip_casts(a)
        if iv not in ivs or defined_inside(b, outer):
            continue
        if p.startswith("u") and not isinstance(b.type, ir.IndexType) and ir.IntegerType(b.type).width >= 64:
            return None  # a huge unsigned bound would read as negative in index arithmetic
        return ivs[iv], p, b
    return None


def _strip_casts(v):
    while not isinstance(v.owner, ir.Block) and v.owner.name in CASTS:
        v = v.owner.operands[0]
    return v
