"""Interior-block versions of thread loops with edge guards (a `--cpuify` optimization after guard narrowing).

Kernels guard every access against the edges of the data, ``As[ty][tx] = (row < M && t * TILE + tx < K) ?
A[row * K + t * TILE + tx] : 0.0f``. guard_narrowing.py turns such tests into loop bounds only where the guard
has no else branch; an ``if`` with an else (a ternary, a zero padding) stays in the loop, and LLVM, which fully
unrolls the 16-iteration loop before vectorizing, is left with 16 branches around scalar loads (measured on
the tiled matrix product: its tile loads never vectorized). Yet in almost every block no thread fails a test:
only the blocks on the edges of the grid do.

This pass versions each such thread loop: ``if (every thread passes the tests) { the loop with those ifs
replaced by their then-branch } else { the loop as it was }``. A test ``tid_d PRED bound`` (thread_test in
guard_narrowing.py: a thread id against a block-uniform bound) holds for every thread of the loop exactly when
it holds for the extreme id of dimension d (the largest for ``<``/``<=``, the smallest for ``>``/``>=``), so the
check is one comparison per test, made once per execution of the thread loop. Loop unswitching of this kind is
what LLVM itself does for loop-invariant conditions; here the conditions vary with the thread id, and the
invariant fact is the block's position in the grid.

Only ifs that yield values (``c ? A[i] : 0.0f``) are versioned. Ifs without results either had their tests made
loop bounds by guard_narrowing.py or keep them on purpose, and an if that stores in both branches (hotspot's
``if (inside) t_cur[ty][tx] = temp_in[..]; else t_cur[ty][tx] = 0``) came out slower unguarded: LLVM fully
unrolled its x loop and vectorized along ty with gathers and scatters (35% on the hotspot example).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from .barrier_elimination import _hoist_uniform
from .guard_narrowing import _conjuncts, _thread_test
from .ir_nav import body_ops, collect, inline_then, loop_bounds
from .launch_to_loops import is_thread_loop

INTERIOR = "pgcc.interior"  # the fast version of a thread loop (not versioned again)


def version_interior_blocks(module: ir.Module) -> None:
    """Version every thread loop of `module` that holds a top-level ``if`` on thread tests only (in place);
    raises nothing."""
    for p in collect(module.operation, lambda o: is_thread_loop(o) and INTERIOR not in o.attributes):
        _version(p)


def _version(p) -> None:
    if collect(p, lambda o: o.name in ("func.call", "llvm.call")):
        return  # calls stay single (AD's markers among them); their code is not duplicated
    _hoist_uniform(p)
    guarded = []
    for op in body_ops(p):
        if op.name != "scf.if" or not len(op.results):
            continue  # see the module docstring: only value-yielding ifs (ternaries)
        tests = [_thread_test(c, p) for c in _conjuncts(op.operands[0])]
        if tests and None not in tests and all(pred != "eq" for _, pred, _ in tests):
            guarded.append((op, tests))
    if not guarded:
        return
    idx = ir.IndexType.get()
    lbs, ubs = loop_bounds(p)[:2]
    with p.location, ir.InsertionPoint(p):
        one = arith.constant(idx, 1)
        every = arith.constant(ir.IntegerType.get_signless(1), 1)
        for _, tests in guarded:
            for d, pred, bound in tests:
                if pred[1:] in ("lt", "le"):  # the largest id ub - 1 passes
                    op = arith.CmpIPredicate.slt if pred[1:] == "lt" else arith.CmpIPredicate.sle
                    holds = arith.cmpi(op, arith.subi(ubs[d], one), bound)
                else:  # the smallest id lb passes
                    op = arith.CmpIPredicate.sgt if pred[1:] == "gt" else arith.CmpIPredicate.sge
                    holds = arith.cmpi(op, lbs[d], bound)
                every = arith.andi(every, holds)
        version = scf.IfOp(every, has_else=True)
        with ir.InsertionPoint(version.then_block):
            fast = p.clone(ip=ir.InsertionPoint.current)
            scf.YieldOp([])
        with ir.InsertionPoint(version.else_block):
            slow_yield = scf.YieldOp([])
    p.move_before(slow_yield)
    fast.attributes[INTERIOR] = ir.UnitAttr.get()
    p.attributes[INTERIOR] = ir.UnitAttr.get()
    marked = {op.operation for op, _ in guarded}
    positions = [i for i, op in enumerate(body_ops(p)) if op.operation in marked]
    fast_ops = body_ops(fast)
    for i in positions:
        inline_then(fast_ops[i])
