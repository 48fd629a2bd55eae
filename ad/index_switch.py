"""``scf.index_switch`` (a C switch without fall-through, frontend/switch.py) as a chain of ``scf.if`` ops in the
primal copies that AD differentiates: the derivative rules of both modes know scf.if (a branch's forward and
reverse sweep, its taken arm recomputed from the cached condition), so a switch needs none of its own.
`switch (k) {case 0: A; case 1: B; default: C}` becomes `if (k == 0) A else if (k == 1) B else C`, with the
yielded values of each arm as the if's results. The primal function itself keeps its scf.index_switch.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from .activity import all_ops


def index_switches_as_ifs(f) -> None:
    """Rewrite every scf.index_switch of func `f` (innermost first) as nested scf.if ops (module docstring)."""
    for op in reversed([o for o in all_ops(f) if o.operation.name == "scf.index_switch"]):
        _as_ifs(op)


def _as_ifs(op) -> None:
    cases = list(ir.DenseI64ArrayAttr(op.attributes["cases"]))
    arg = op.operands[0]
    types = [r.type for r in op.results]
    regions = list(op.regions)  # (the default region first, then one per case)
    if not cases:  # (only a default arm: its ops in place of the switch)
        block = regions[0].blocks[0]
        ops = list(block.operations)
        for o in ops[:-1]:
            o.operation.move_before(op.operation)
        news = list(ops[-1].operands)
    else:
        with ir.InsertionPoint(op), op.location:
            news = list(_chain(arg, cases, regions[1:], regions[0], types).results)
    for old, new in zip(op.results, news):
        old.replace_all_uses_with(new)
    op.operation.erase()


def _chain(arg, cases, arms, default, types):
    """scf.if (arg == cases[0]) arms[0] else (the chain of the rest, or the default arm), at the insertion
    point."""
    cond = arith.cmpi(arith.CmpIPredicate.eq, arg, arith.constant(ir.IndexType.get(), cases[0]))
    top = scf.IfOp(cond, types, has_else=True)
    _move_block(arms[0].blocks[0], top.then_block)
    if len(cases) == 1:
        _move_block(default.blocks[0], top.else_block)
    else:
        with ir.InsertionPoint(top.else_block):
            inner = _chain(arg, cases[1:], arms[1:], default, types)
            scf.YieldOp(list(inner.results))
    return top


def _move_block(src, dst) -> None:
    """Move every op of block `src` (its scf.yield included) to the end of empty block `dst`."""
    for o in list(src.operations):
        dst.append(o.operation)
